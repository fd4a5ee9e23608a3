"""The report's charts as PNG bytes: matplotlib's object interface on the Agg canvas (no pyplot,
no window, no global state), one function per chart of a tower's study."""

from __future__ import annotations

import io
import logging
import os
import warnings

from simulator.core.data_home import data_dir

# matplotlib's words about its cache folders (an unwritable home: "Matplotlib created a
# temporary cache directory ...") or its font cache would make a command's stderr more than its
# one line of error or progress; they change nothing in a chart
logging.getLogger("matplotlib").setLevel(logging.ERROR)
# and its cache (fonts, settings) goes in the program's data folder, not the user's ~/.cache or
# ~/.config: what the program writes stays in one place (unless the user chose MPLCONFIGDIR)
os.environ.setdefault("MPLCONFIGDIR", str(data_dir() / "matplotlib"))

import numpy as np  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.image import imsave  # noqa: E402

from simulator.towers.studies.study import TowerResult  # noqa: E402

LABELLED = 30          # orderings named on the chart; more are drawn by rank
DPI = 100


def _png(figure: Figure) -> bytes:
    FigureCanvasAgg(figure)
    with warnings.catch_warnings():         # "tight_layout not applied" on a crowded chart
        warnings.simplefilter("ignore", UserWarning)
        figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return buffer.getvalue()


def image_png(image: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    imsave(buffer, image, format="png")
    return buffer.getvalue()


def stand_chart(tower: TowerResult) -> bytes:
    """The stand probability of every judged ordering, most likely first, with its 95 % Wilson
    interval."""
    rows = [o for o in tower.orderings if o.interval is not None and o.p_stand is not None]
    p = np.array([o.p_stand for o in rows])
    # below and above p (clipped: rounding can make a bound a hair past p)
    low = np.clip(p - np.array([o.interval[0] for o in rows if o.interval]), 0.0, None)
    high = np.clip(np.array([o.interval[1] for o in rows if o.interval]) - p, 0.0, None)
    if len(rows) <= LABELLED:
        figure = Figure(figsize=(9, 1.2 + 0.32 * max(len(rows), 1)))
        axes = figure.add_subplot()
        y = np.arange(len(rows))
        axes.barh(y, p, xerr=[low, high], color="#b8864b", ecolor="#333333", capsize=3)
        axes.set_yticks(y, [" ".join(o.order) for o in rows], fontsize=7)
        axes.invert_yaxis()
        axes.set_xlim(0, 1)
        axes.set_xlabel("probability of standing (95 % Wilson interval)")
    else:
        figure = Figure(figsize=(9, 4))
        axes = figure.add_subplot()
        x = np.arange(1, len(rows) + 1)
        axes.fill_between(x, p - low, p + high, color="#e6cfa8", label="95 % Wilson interval")
        axes.plot(x, p, color="#8a5a2b", label="stand rate")
        axes.set_ylim(0, 1)
        axes.set_xlabel("ordering, by rank")
        axes.set_ylabel("probability of standing")
        axes.legend(loc="upper right")
    axes.set_title(f"{len(rows)} orderings, {tower.study.trials} trials each")
    return _png(figure)


def piece_chart(tower: TowerResult) -> bytes:
    """Per piece, the stand rate of the builds that placed it at each position."""
    pieces = tower.pieces
    size = len(tower.study.pieces)
    rates = np.full((len(pieces), size), np.nan)
    for row, piece in enumerate(pieces):
        for position, (n, k) in enumerate(zip(piece.trials, piece.stood, strict=True)):
            if n:
                rates[row, position] = k / n
    figure = Figure(figsize=(max(6.0, 2.5 + 0.45 * size), 1.5 + 0.32 * max(len(pieces), 1)))
    axes = figure.add_subplot()
    shown = axes.imshow(np.ma.masked_invalid(rates), vmin=0, vmax=1, cmap="RdYlGn", aspect="auto")
    axes.set_xticks(np.arange(size), [str(i) for i in range(size)])
    axes.set_yticks(np.arange(len(pieces)), [p.piece for p in pieces], fontsize=8)
    axes.set_xlabel("position in the order (0: first on the foundation)")
    for (row, column), value in np.ndenumerate(rates):
        if not np.isnan(value):
            axes.text(column, row, f"{value:.2f}", ha="center", va="center", fontsize=7)
    figure.colorbar(shown, ax=axes, label="stand rate")
    axes.set_title("stand rate by each piece's position")
    return _png(figure)


def height_chart(tower: TowerResult) -> bytes:
    """The heights the builds reached: standing at the end, or when they fell."""
    stood = [r.height_mm for r in tower.results if r.stood]
    fell = [r.height_mm for r in tower.results if not r.stood]
    figure = Figure(figsize=(7, 3.2))
    axes = figure.add_subplot()
    everything = stood + fell
    bins = np.histogram_bin_edges(everything, bins=min(30, max(5, len(everything) // 4))).tolist()
    axes.hist([stood, fell], bins=bins, stacked=True, color=["#5a9c5a", "#c0504d"],
              label=[f"stood ({len(stood)})", f"fell ({len(fell)})"])
    axes.set_xlabel("height of the tower, mm (a fallen one: when it fell)")
    axes.set_ylabel("builds")
    axes.legend()
    axes.set_title("height distribution")
    return _png(figure)
