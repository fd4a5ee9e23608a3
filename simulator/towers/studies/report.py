"""`--report DIR`: a study as one self-contained HTML page (charts and pictures embedded as
base64 PNG, no other file needed to view it) beside the raw results, results.csv (one row per
build) and results.json (the --json report plus every build).

`check_report_dir` runs before any work: DIR may exist (a folder we can write in) or not yet
(then the nearest folder above it must be writable; DIR is made when the report is written).
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import os
import tempfile
from pathlib import Path

from simulator.core.errors import UsageError
from simulator.core.files import not_a_plain_file
from simulator.core.text import printable
from simulator.towers.studies.jobs import Job, JobResult
from simulator.towers.studies.pictures import tower_picture
from simulator.towers.studies.plots import height_chart, image_png, piece_chart, stand_chart
from simulator.towers.studies.study import OrderingStats, StudyResult, TowerResult

PAGE = "index.html"
CSV = "results.csv"
JSON = "results.json"
TABLE_ROWS = 100     # orderings listed in a tower's table (the CSV and JSON have them all)
CSV_COLUMNS = ["scene", "path", "tower", "ordering", "trial", "seed", "order", "stood", "fell_at",
               "disturbed", "height_mm"]
STYLE = """body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}
table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;border-bottom:1px solid #ddd;
text-align:left}td.n{text-align:right}img{max-width:100%}figure{display:inline-block;margin:0 1em}
.note{color:#666}"""


def check_report_dir(directory: str) -> Path:
    """DIR, or UsageError in one line when it cannot take the report."""
    where = printable(directory, 200)
    if "\x00" in directory:
        raise UsageError(f"--report {where}: a folder name has no NUL character")
    try:
        path = Path(directory)
        if path.exists() and not path.is_dir():
            raise UsageError(f"--report {where}: is a file, not a folder")
        existing = path
        while not existing.exists():
            existing = existing.parent
        if not existing.is_dir():
            raise UsageError(f"--report {where}: {printable(str(existing), 200)} is a file, "
                             "not a folder")
        with tempfile.TemporaryFile(dir=existing):
            pass
    except (OSError, ValueError) as error:   # ValueError: a NUL in the name
        reason = getattr(error, "strerror", None) or str(error)
        raise UsageError(f"--report {where}: not writable ({printable(reason, 80)})") from None
    return path


def spreadsheet_safe(text: str) -> str:
    """A text cell no spreadsheet takes for a formula: one that begins with =, +, -, @, a tab
    or a carriage return gets a leading apostrophe (a scene named '=HYPERLINK(...)')."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _csv_text(result: StudyResult) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for tower in result.towers:
        for r in tower.results:
            row = r.as_dict()
            writer.writerow([spreadsheet_safe(tower.study.scene_name), spreadsheet_safe(tower.study.path), row["tower"],
                             row["ordering"], row["trial"], row["seed"], spreadsheet_safe(" ".join(r.order)),
                             row["stood"], "" if r.fell_at is None else r.fell_at,
                             row["disturbed"], row["height_mm"]])
    return buffer.getvalue()


def _img(png: bytes, alt: str) -> str:
    return (f'<img alt="{html.escape(alt)}" '
            f'src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}">')


def _pick(tower: TowerResult, ordering: OrderingStats, stood: bool) -> JobResult | None:
    """A finished build of `ordering` that stood (or fell), else its first one."""
    builds = [r for r in tower.results if r.key[2] == ordering.index]
    return next((r for r in builds if r.stood == stood), builds[0] if builds else None)


def _pictures(tower: TowerResult, jobs: dict[tuple[int, int, int, int], Job]) -> str:
    judged = [o for o in tower.orderings if o.trials]
    if not judged:
        return ""
    picks = [("the most stable ordering", _pick(tower, judged[0], True)),
             ("the least stable ordering", _pick(tower, judged[-1], False))]
    if picks[0][1] == picks[1][1]:
        picks = picks[:1]
    figures = []
    for title, build in picks:
        if build is None:
            continue
        image, report = tower_picture(jobs[build.key])
        verdict = "stood" if report.stood else f"fell after placement {report.fell_at}"
        caption = f"{title}, trial {build.key[3]}: {verdict}, {report.height_mm:.0f} mm"
        figures.append(f"<figure>{_img(image_png(image), caption)}"
                       f"<figcaption>{html.escape(caption)}</figcaption></figure>")
    return "<h3>Towers</h3>" + "".join(figures)


def _ordering_table(tower: TowerResult) -> str:
    rows = []
    for rank, o in enumerate(tower.orderings[:TABLE_ROWS], start=1):
        if o.interval is None or o.p_stand is None or o.mean_height_mm is None:
            cells = ["not judged", "", "", ""]
        else:
            cells = [f"{o.p_stand:.2f}", f"{o.interval[0]:.2f} to {o.interval[1]:.2f}",
                     f"{o.stood}/{o.trials}", f"{o.mean_height_mm:.1f}"]
        rows.append(f"<tr><td class=n>{rank}</td>" + "".join(f"<td class=n>{c}</td>" for c in cells)
                    + f"<td>{html.escape(' '.join(o.order))}</td></tr>")
    more = len(tower.orderings) - TABLE_ROWS
    note = f'<p class=note>{more} more orderings in {CSV} and {JSON}.</p>' if more > 0 else ""
    return ("<table><tr><th>rank</th><th>stands</th><th>95 % interval</th><th>stood</th>"
            "<th>mean height mm</th><th>order</th></tr>" + "".join(rows) + "</table>" + note)


def _tower_section(tower: TowerResult, jobs: dict[tuple[int, int, int, int], Job]) -> str:
    s = tower.study
    title = f"{s.scene_name}, tower {s.tower}"
    head = (f"<h2>{html.escape(title)}</h2><p>{html.escape(s.path)}: {len(s.pieces)} pieces on "
            f"{html.escape(s.foundation)}; {len(s.orderings)} orderings x {s.trials} trials; "
            f"tremor {s.tremor.position_mm:g} mm / {s.tremor.angle_deg:g} deg; seed {s.seed}. "
            f"Stood {tower.stood} of {len(tower.results)} builds.</p>")
    if not tower.results:
        return head + "<p class=note>No build of this tower finished.</p>"
    charts = [_img(stand_chart(tower), "stand probability per ordering"),
              _img(height_chart(tower), "height distribution")]
    if s.pieces:
        charts.insert(1, _img(piece_chart(tower), "stand rate by position of each piece"))
    return head + _ordering_table(tower) + "".join(f"<p>{c}</p>" for c in charts) + _pictures(tower, jobs)


def _page(result: StudyResult) -> str:
    jobs = {job.key: job for job in result.plan.jobs}
    state = " (interrupted: partial results)" if result.interrupted else ""
    summary = (f"<p>{result.finished} of {len(result.plan.jobs)} builds{state}, orderings "
               f"{html.escape(str(result.plan.spec))}, {result.plan.trials} trials each, "
               f"{result.where()}, "
               f"{result.wall_seconds:.1f} s. Raw results: <a href=\"{CSV}\">{CSV}</a>, "
               f"<a href=\"{JSON}\">{JSON}</a>.</p>")
    sections = "".join(_tower_section(t, jobs) for t in result.towers)
    return (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Stability study</title>"
            f"<style>{STYLE}</style></head><body><h1>Stability study</h1>{summary}{sections}"
            f"</body></html>\n")


def write_report(directory: Path, result: StudyResult) -> list[Path]:
    """Write the page and the raw results into `directory` (made if missing), whole or not at
    all: every file is written in full beside its place first, and only then are they renamed
    into it, so a full disk or an error leaves the report that was there as it was. A name in
    the folder that is a symbolic link, a FIFO or a device is refused (UsageError), never
    followed or replaced."""
    directory.mkdir(parents=True, exist_ok=True)
    for name in (JSON, CSV, PAGE):
        if (kind := not_a_plain_file(directory / name)) is not None:
            raise UsageError(f"--report {printable(str(directory), 200)}: {name} is {kind}; "
                             "the report replaces only plain files")
    raw = result.as_dict() | {"builds": [r.as_dict() for r in result.results]}
    files = {JSON: json.dumps(raw, indent=1) + "\n", CSV: _csv_text(result), PAGE: _page(result)}
    ready: list[tuple[str, Path]] = []
    try:
        for name, text in files.items():
            fd, temporary = tempfile.mkstemp(prefix=f".{name}-", dir=directory)
            ready.append((temporary, directory / name))
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
    except BaseException:
        for temporary, _ in ready:
            Path(temporary).unlink(missing_ok=True)
        raise
    for temporary, path in ready:
        os.replace(temporary, path)
    return [path for _, path in ready]
