"""The house: simulator/'s folders (and top-level modules) and the imports between them, drawn
as floors, each room above every room it imports. Writes docs/imports.svg.

    .venv/bin/python tools/draw_imports.py           # write docs/imports.svg
    .venv/bin/python tools/draw_imports.py --check   # exit 1 if it is out of date or the house
                                                     # has a circle (tests/test_layering.py)

A room is a folder of simulator/ (core, render, physics ...), each game's package, or a module at
the top (cli.py, selfplay.py ...). Every import counts, a lazy one inside a function too: it is a
dependency all the same. Floors are counted from the ground: a room stands one floor above the
highest room it imports, so an arrow can only run down; an import circle has no floors and is
reported instead.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "simulator"
DRAWING = ROOT / "docs" / "imports.svg"


@dataclass
class House:
    rooms: dict[str, int] = field(default_factory=dict)              # room -> lines of code
    arrows: set[tuple[str, str]] = field(default_factory=set)        # (importer, imported)
    module_arrows: set[tuple[str, str]] = field(default_factory=set)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def room_of(module: str) -> str:
    parts = module.split(".")[1:]          # without "simulator"
    if not parts or parts == ["games"]:    # the package faces: empty
        return "simulator"
    if parts[0] == "games" and len(parts) > 1:
        return f"games/{parts[1]}"
    if (PACKAGE / parts[0]).is_dir():
        return parts[0]
    return f"{parts[0]}.py"


def imported_modules(tree: ast.AST, package: str, known: set[str]) -> set[str]:
    """The simulator modules a file of `package` imports (a name taken from a package that is a
    module of its own counts as that module)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("simulator")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:                  # relative: from the file's package, level - 1 up
                parts = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            if not base.startswith("simulator"):
                continue
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in known else base)
    return {m for m in found if m in known}


def read_house() -> House:
    files = sorted(PACKAGE.rglob("*.py"))
    known = {module_name(p) for p in files}
    house = House()
    for path in files:
        here = module_name(path)
        room = room_of(here)
        text = path.read_text(encoding="utf-8")
        house.rooms[room] = house.rooms.get(room, 0) + len(text.splitlines())
        package = here if path.name == "__init__.py" else here.rpartition(".")[0]
        if here == "simulator":     # the package's face re-exports api.py's names on first
            continue                # use (PEP 562): every module runs it, none depends on it
        for other in imported_modules(ast.parse(text), package, known):
            if other != here:
                house.module_arrows.add((here, other))
            if room_of(other) != room and room_of(other) != "simulator":
                house.arrows.add((room, room_of(other)))
    house.rooms.pop("simulator", None)
    return house


def circles(arrows: set[tuple[str, str]]) -> list[list[str]]:
    """Every strongly connected group of more than one node (Tarjan's algorithm, iteratively)."""
    graph: dict[str, list[str]] = {}
    for a, b in sorted(arrows):
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(graph[child])))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def floors(house: House) -> dict[str, int]:
    """Each room's floor: 1 for a room that imports none, else one above the highest it imports."""
    below = {room: {b for a, b in house.arrows if a == room} for room in house.rooms}
    floor: dict[str, int] = {}

    def of(room: str, seen: tuple[str, ...] = ()) -> int:
        if room not in floor:
            if room in seen:
                raise ValueError(f"an import circle: {' -> '.join((*seen, room))}")
            floor[room] = 1 + max((of(b, (*seen, room)) for b in below[room]), default=0)
        return floor[room]

    for room in house.rooms:
        of(room)
    return floor


def drawing(house: House) -> str:
    """The house as SVG: floors from the ground up, rooms as boxes (name, lines), arrows down."""
    floor = floors(house)
    by_floor: dict[int, list[str]] = {}
    for room in sorted(house.rooms, key=lambda r: (floor[r], r)):
        by_floor.setdefault(floor[room], []).append(room)
    width, row, box_h, gap = 1400, 110, 46, 14
    height = row * len(by_floor) + 90
    where: dict[str, tuple[float, float, float]] = {}            # room -> (x, y top, width)
    for level, rooms in by_floor.items():
        y = height - 40 - level * row
        box_w = min(210.0, (width - 40 - gap * (len(rooms) - 1)) / len(rooms))
        x = (width - (box_w * len(rooms) + gap * (len(rooms) - 1))) / 2
        for room in rooms:
            where[room] = (x, y, box_w)
            x += box_w + gap
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif">',
           '<rect width="100%" height="100%" fill="#fbf8f2"/>',
           '<defs><marker id="head" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto">'
           '<path d="M0,0 L8,4 L0,8 z" fill="#8a7f70"/></marker></defs>',
           f'<text x="20" y="30" font-size="18" fill="#3b3024">simulator/: its rooms and their imports '
           f'(each room above every room it imports; {len(house.arrows)} arrows, '
           f'drawn by tools/draw_imports.py)</text>']
    for importer, imported in sorted(house.arrows):
        x1, y1, w1 = where[importer]
        x2, y2, w2 = where[imported]
        out.append(f'<line x1="{x1 + w1 / 2:.0f}" y1="{y1 + box_h:.0f}" x2="{x2 + w2 / 2:.0f}" y2="{y2:.0f}" '
                   'stroke="#8a7f70" stroke-opacity="0.45" stroke-width="1.2" marker-end="url(#head)"/>')
    for level, rooms in by_floor.items():
        out.append(f'<text x="12" y="{height - 40 - level * row + 28}" font-size="12" fill="#8a7f70">'
                   f'floor {level}</text>')
        for room in rooms:
            x, y, w = where[room]
            fill = "#dfe8f1" if room.startswith("games/") else "#eadfcb"
            out.append(f'<rect x="{x:.0f}" y="{y:.0f}" width="{w:.0f}" height="{box_h}" rx="5" '
                       f'fill="{fill}" stroke="#6b5b45"/>')
            out.append(f'<text x="{x + 8:.0f}" y="{y + 28:.0f}" font-size="14" fill="#2a2118">'
                       f'{escape(room)}</text>')        # no line counts: the drawing changes only
                                                        # when the house does
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 if the drawing is out of date or a circle exists")
    args = parser.parse_args(argv)
    house = read_house()
    found = circles(house.module_arrows) + circles(house.arrows)
    if found:
        for group in found:
            print(f"draw_imports: an import circle: {', '.join(group)}", file=sys.stderr)
        return 1
    text = drawing(house)
    if args.check:
        if not DRAWING.exists() or DRAWING.read_text(encoding="utf-8") != text:
            print(f"draw_imports: {DRAWING.relative_to(ROOT)} is out of date: run tools/draw_imports.py",
                  file=sys.stderr)
            return 1
        return 0
    DRAWING.write_text(text, encoding="utf-8")
    print(f"{DRAWING.relative_to(ROOT)}: {len(house.rooms)} rooms on {max(floors(house).values())} floors, "
          f"{len(house.arrows)} arrows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
