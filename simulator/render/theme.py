"""Colours and fonts shared by every screen, so the games look like one program."""

FONT = ("DejaVu Sans", "Arial", "Helvetica")
FONT_SERIF = ("DejaVu Serif", "Georgia", "Times New Roman")

BACKGROUND = (38, 44, 40)          # green-grey baize around boards
BACKGROUND_TOP = (54, 64, 57)
PANEL = (24, 26, 24, 215)
PANEL_LIGHT = (250, 244, 232, 255)
TEXT = (240, 236, 226, 255)
TEXT_DIM = (185, 180, 168, 255)
HEADING = (236, 206, 150, 255)      # a screen's title (the menu, a game, join, replay)
TEXT_DARK = (40, 32, 24, 255)
ACCENT = (214, 160, 72)            # brass
ACCENT_HOVER = (238, 184, 96)
FOCUS = (250, 214, 140, 255)       # the keyboard focus ring
SELECTED = (58, 118, 104)          # a chosen option (not the brass of the main action)
SELECTED_HOVER = (74, 140, 124)
ACCENT_TEXT = (30, 22, 12, 255)
BUTTON = (70, 76, 70)
BUTTON_HOVER = (96, 104, 96)
BUTTON_DISABLED = (52, 56, 52)
DANGER = (208, 64, 52)
WARNING_TEXT = (255, 120, 104, 255)  # a line that warns (a release that touches the table)
GOOD = (96, 176, 96)
GRID_LINE = (58, 38, 18, 230)


def side_panel_width(window_width: int) -> int:
    """The width of a game's or a replay's side panel: 320 px from a 1070 px window, narrower
    below (248 at the smallest window, 800 px) so that the table keeps two thirds of the width."""
    return max(248, min(320, round(window_width * 0.3)))
