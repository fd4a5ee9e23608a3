"""Whether a Bandu game was played with an aid: the practice aid (practice.py) switched on, or a
hint (hint.py) taken. An aided attempt is marked in the records and is never a best."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simulator.core.setting_values import flag


def practice_aid_of(settings: Mapping[str, Any]) -> bool:
    """The `practice_aid` setting (on/off, true/false, 1/0), refused in one line otherwise."""
    return flag(settings.get("practice_aid", False), "practice_aid")


def aided(settings: Mapping[str, Any]) -> bool:
    """Was the game played with an aid: the practice aid on, or a hint taken?"""
    return practice_aid_of(settings) or settings.get("hint_used") is True
