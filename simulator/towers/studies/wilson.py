"""The Wilson score interval: where a probability lies, given successes in trials.

Unlike the normal approximation p +- z sqrt(p (1 - p) / n), it stays inside [0, 1] and does
not shrink to a point at 0 or n successes, which small studies hit often (E. B. Wilson,
"Probable inference, the law of succession, and statistical inference", JASA 22 (1927) 209).
"""

from __future__ import annotations

import math

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile: a two-sided 95 % interval


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The interval (low, high) for the probability of success; trials must be at least 1."""
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {successes}/{trials}")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)
