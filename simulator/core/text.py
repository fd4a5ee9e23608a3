"""Text from outside (file names, scene names, keys, values) made safe to print on one line:
no terminal control characters, no line breaks, and a bounded length."""

from __future__ import annotations

from typing import Any

SHOWN_CHARACTERS = 80


def printable(text: str, limit: int = SHOWN_CHARACTERS) -> str:
    """`text` without control characters (each shown as '?'), cut to `limit` with an ellipsis."""
    clean = "".join(c if c.isprintable() else "?" for c in text)
    return clean if len(clean) <= limit else clean[:limit - 1] + "…"


def shown(value: Any, limit: int = SHOWN_CHARACTERS) -> str:
    """A value from a file as an error message shows it: repr, printable, bounded. Integers too
    long to print (Python refuses str() beyond 4300 digits) are described by their size."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"a {value.bit_length()}-bit integer"
    try:
        return printable(repr(value), limit)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"
