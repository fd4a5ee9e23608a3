"""What every subcommand of the command line shares, the program's own and those a game adds
(Game.commands): bounded whole numbers, --workers, --setting KEY=VALUE, and the exit status of
an interrupt."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import Any

from simulator.core.cores import usable_cores
from simulator.core.errors import UsageError
from simulator.core.text import shown

INTERRUPTED = 130                # the exit status after Ctrl+C
MAX_WORKERS = 256                # --workers; more than the cores available only with --oversubscribe
MAX_SEED = 2**63 - 1


WHOLE_NUMBER = re.compile(r"-?[0-9]+", re.ASCII)


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in [low, high], else one line saying the range
    (argparse names the option)."""
    def parse(text: str) -> int:
        # ASCII digits only: int() would also take other scripts' digits, '1_000' and '+1'
        digits = text.strip()
        value = int(digits) if len(text) <= 25 and WHOLE_NUMBER.fullmatch(digits) else None
        if value is None:
            raise argparse.ArgumentTypeError(f"wants a whole number, not {text[:20]!r}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, not {value}")
        return value
    return parse


def add_workers(parser: Any, default: int | None) -> None:
    """--workers and --oversubscribe, as selfplay, solo and studies take them (read by workers_of)."""
    parser.add_argument("--workers", type=bounded_int(1, MAX_WORKERS), default=default, metavar="K",
                        help="processes to use (1 up to the cores available)")
    parser.add_argument("--oversubscribe", action="store_true", help="allow more workers than cores")


def workers_of(args: Any) -> int:
    """--workers, capped at the cores available unless --oversubscribe (with a note)."""
    workers = args.workers or 1
    cores = usable_cores()
    if workers > cores and not args.oversubscribe:
        print(f"bandu-sim: note: --workers {workers} capped at the {cores} cores available "
              "(--oversubscribe to use more)", file=sys.stderr)
        workers = cores
    return workers


def players_of(text: str) -> list[str]:
    """--players: comma-separated, blanks ignored."""
    return [p.strip() for p in text.split(",") if p.strip()]


def _parse_setting(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise UsageError(f"--setting wants KEY=VALUE, not {shown(text, 40)}")
    try:
        parsed: Any = int(value)
    except ValueError:
        parsed = value
    return key.strip(), parsed


def parse_settings(texts: list[str]) -> dict[str, Any]:
    """Every --setting KEY=VALUE; a key given twice is refused rather than the last one kept."""
    settings: dict[str, Any] = {}
    for text in texts:
        key, value = _parse_setting(text)
        if key in settings:
            raise UsageError(f"--setting {shown(key, 30)} is given twice ({settings[key]} and {value}): "
                             "give each setting once")
        settings[key] = value
    return settings
