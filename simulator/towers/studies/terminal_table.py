"""A study as a table on the terminal: per tower, its orderings from the most to the least
likely to stand (at most SHOWN rows at each end; the JSON and the report have them all)."""

from __future__ import annotations

from simulator.core.text import printable
from simulator.towers.studies.study import OrderingStats, StudyResult, TowerResult

SHOWN = 10   # orderings listed at the top and at the bottom of a tower's table


def _row(rank: int, o: OrderingStats) -> str:
    if o.interval is None or o.p_stand is None or o.mean_height_mm is None:
        return f"  {rank:>5}  {'not judged':<35}  {' '.join(o.order)}"
    interval = f"[{o.interval[0]:.2f}, {o.interval[1]:.2f}]"
    return (f"  {rank:>5}  {o.p_stand:>6.2f}  {interval:<12}  {f'{o.stood}/{o.trials}':>11}  "
            f"{o.mean_height_mm:>9.1f}  {' '.join(o.order)}")


def format_tower(tower: TowerResult) -> list[str]:
    s = tower.study
    lines = [f"{printable(s.scene_name)}  ({printable(s.path, 200)}) tower {s.tower}: "
             f"{len(s.pieces)} pieces on {s.foundation}, {len(s.orderings)} orderings x "
             f"{s.trials} trials, tremor {s.tremor.position_mm:g} mm / "
             f"{s.tremor.angle_deg:g} deg, seed {s.seed}"
             + ("" if s.reorderable else " (explicit placements: their own order only)")]
    lines.append(f"  {'rank':>5}  {'stands':>6}  {'95% interval':<12}  {'stood':>11}  "
                 f"{'height mm':>9}  order")
    rows = tower.orderings
    cut = len(rows) > 2 * SHOWN
    for rank, ordering in enumerate(rows, start=1):
        if cut and SHOWN < rank <= len(rows) - SHOWN:
            if rank == SHOWN + 1:
                lines.append(f"  {'...':>5}  {len(rows) - 2 * SHOWN} more orderings")
            continue
        lines.append(_row(rank, ordering))
    if tower.results:
        worst = max(tower.pieces, key=lambda p: p.brought_down, default=None)
        lines.append(f"  stood {tower.stood} of {len(tower.results)} builds"
                     + (f"; the fall came most often just after {worst.piece} "
                        f"({worst.brought_down} times)" if worst and worst.brought_down else ""))
    return lines


def format_study(result: StudyResult) -> str:
    lines = []
    for tower in result.towers:
        lines += format_tower(tower)
    state = "interrupted: " if result.interrupted else ""
    lines.append(f"study: {state}{result.finished} of {len(result.plan.jobs)} builds in "
                 f"{result.wall_seconds:.1f} s on {result.where()} "
                 f"({result.orderings_per_minute():.1f} orderings judged per minute)")
    return "\n".join(lines)
