"""The terminal tables of `bandu-sim records` (attempts and personal bests) and of `bandu-sim
solo` (the attempts of one run). Text from the records is printed without control characters."""

from __future__ import annotations

from collections.abc import Sequence

from simulator.core.text import printable
from simulator.games.bandu.records import Attempt

CONTEST_CHARACTERS = 42      # "chain mixed-tower.toml#702ae1d29eaa" and the like


def contest(attempt: Attempt) -> str:
    """'solo', 'solo reserve:12', 'chain seed:7' ..."""
    key = printable(attempt.chain_key, CONTEST_CHARACTERS - 6)
    return f"{attempt.variant} {key}" if key else attempt.variant


def _when(attempt: Attempt) -> str:
    return attempt.when[:16].replace("T", " ")       # 2026-01-31 18:04 (UTC)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def format_records(attempts: Sequence[Attempt], bests: Sequence[Attempt], where: str) -> str:
    """Every attempt, newest first, then the personal bests."""
    if not attempts:
        return f"no attempts yet in {where}"
    lines = [f"{'when (UTC)':<16}  {'who':<16} {'variant/chain':<{CONTEST_CHARACTERS}} {'pieces':>6} "
             f"{'height mm':>9}  {'fell':<4}  aided"]
    for a in attempts:
        lines.append(f"{_when(a):<16}  {printable(a.who, 16):<16} {contest(a):<{CONTEST_CHARACTERS}} {a.score:>6} "
                     f"{a.height_mm:>9.1f}  {_yes(a.fell):<4}  {'marked' if a.practice_aid else ''}")
    lines += ["", "personal bests (the most pieces, then the taller tower; attempts with the practice "
              "aid or a hint do not count)", f"{'variant/chain':<{CONTEST_CHARACTERS}} {'who':<16} {'pieces':>6} "
              f"{'height mm':>9}  when (UTC)"]
    for a in bests:
        lines.append(f"{contest(a):<{CONTEST_CHARACTERS}} {printable(a.who, 16):<16} {a.score:>6} "
                     f"{a.height_mm:>9.1f}  {_when(a)}")
    lines.append(f"{len(attempts)} attempts in {where}")
    return "\n".join(lines)


def format_solo_run(rows: Sequence[dict], title: str) -> str:
    """The attempts of one `bandu-sim solo` run (AttemptResult.as_dict()), then a summary."""
    lines = [f"{'attempt':>7} {'seed':>8} {'pieces':>6} {'height mm':>9}  {'fell':<4} "
             f"{'think s':>7} {'longest s':>9}"]
    for r in rows:
        lines.append(f"{r['attempt']:>7} {r['seed']:>8} {r['score']:>6} {r['height_mm']:>9.1f}  "
                     f"{_yes(r['fell']):<4} {r['think_seconds']:>7.1f} {r['max_think_seconds']:>9.2f}")
    if rows:
        best = max(rows, key=lambda r: (r["score"], r["height_mm"]))
        mean = sum(r["score"] for r in rows) / len(rows)
        lines.append(f"{title}: best {best['score']} pieces ({best['height_mm']:.1f} mm, attempt "
                     f"{best['attempt']}), mean {mean:.1f} pieces, fell in "
                     f"{sum(r['fell'] for r in rows)} of {len(rows)}")
    return "\n".join(lines)
