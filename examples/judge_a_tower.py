"""Judge one ordering of Bandu pieces, then estimate how likely it is to stand when a human
hand releases each piece: `python examples/judge_a_tower.py`."""

from simulator import Tremor, judge, stand_probability

order = ["cube-large", "cylinder-wide", "ball", "cube-small"]

verdict = judge(order)                                  # one exact build
print(f"stood: {verdict.stood}, fell at: {verdict.fell_at}, unstable: {verdict.unstable}, "
      f"height {verdict.height_mm:.0f} mm")
for piece in verdict.pieces:
    print(f"  {piece.id:<14} moved {piece.moved_mm:5.1f} mm, tilted {piece.tilt_deg:4.1f} degrees")

rate = stand_probability(order, trials=20, tremor=Tremor(position_mm=1.0, angle_deg=1.0), seed=1)
low, high = rate.interval_95
print(f"stood {rate.stood} of {len(rate.trials)} trembling builds: {rate.rate:.0%} "
      f"(95 % interval {low:.0%} to {high:.0%})")
