"""docs/ARCHITECTURE.md's map of simulator/ is true: every module it names at the head of a line
is there, in the folder it is listed under, and every module there is named in its folder's part
of the map (a new module without a line in the map fails here)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _map_by_folder() -> dict[str, tuple[set[str], str]]:
    """folder (relative to simulator/) -> (modules heading a line, the folder's whole text)."""
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    block = text.split("```")[1]
    parts: dict[str, tuple[set[str], str]] = {"": (set(), "")}
    folder = ""
    for line in block.splitlines():
        head = re.match(r"^  (\S+/)", line)
        if head and not line.startswith("   "):
            folder = head.group(1)
            parts.setdefault(folder, (set(), ""))
            continue
        if re.match(r"^  \w+\.py\b", line):      # a module at the top of simulator/
            folder = ""
        names, words = parts[folder]
        module = re.match(r"^ {2,4}(\w+\.py)\b", line)
        if module:
            names.add(module.group(1))
        parts[folder] = (names, words + "\n" + line)
    return parts


def test_every_module_the_map_names_is_where_it_says():
    for folder, (names, _) in _map_by_folder().items():
        if folder.startswith(("assets", "scenes", "tests")):
            continue
        for name in names:
            assert (ROOT / "simulator" / folder / name).exists(), f"the map names {folder}{name}"


def test_every_module_of_simulator_is_on_the_map():
    parts = _map_by_folder()
    for path in sorted((ROOT / "simulator").rglob("*.py")):
        if path.name in ("__init__.py", "__main__.py"):
            continue
        folder = path.parent.relative_to(ROOT / "simulator").as_posix()
        folder = "" if folder == "." else folder + "/"
        names, words = parts.get(folder, (set(), ""))
        assert path.name in names or re.search(rf"\b{re.escape(path.name)}\b", words), \
            f"simulator/{folder}{path.name} is not on docs/ARCHITECTURE.md's map"
