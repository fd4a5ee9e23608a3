"""docs/ARCHITECTURE.md's map of simulator/ is made from the code (tools/module_map.py, a MkDocs
hook), so it cannot drift: the page holds the map's marker, the map names every module of the
package, and every module says in its docstring what it is (an empty line in the map fails)."""

from __future__ import annotations

from pathlib import Path

import tool_module

ROOT = Path(__file__).resolve().parent.parent
module_map = tool_module.load("module_map")


def test_the_architecture_page_holds_the_generated_map():
    page = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert module_map.MARKER in page
    shown = module_map.on_page_markdown(page, None, None, None)
    assert module_map.MARKER not in shown and "| `controller.py` | The turn controller" in shown


def test_the_map_names_every_module_and_each_says_what_it_is():
    text = module_map.module_map()
    for path in sorted((ROOT / "simulator").rglob("*.py")):
        folder = path.parent.relative_to(ROOT).as_posix()
        assert f"**`{folder}/`**" in text, folder
        described = module_map.first_paragraph(path)
        if path.name != "__init__.py":
            assert len(described) > 20, f"{path.relative_to(ROOT)} has no docstring to say what it is"
        assert f"| `{path.name}` | {described.replace('|', '&#124;')} |" in text
