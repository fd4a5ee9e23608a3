"""The module map of docs/ARCHITECTURE.md, made from the code when the documentation site is
built (a MkDocs hook, named in mkdocs.yml): every module of simulator/, folder by folder, with
the first paragraph of its docstring. A hand-kept list drifted from the code; this one cannot.

    python tools/module_map.py          # prints the map as the site shows it
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- module map -->"


def first_paragraph(path: Path) -> str:
    """The module's docstring up to its first blank line, on one line; '' without one."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    return " ".join(docstring.split("\n\n", 1)[0].split())


def module_map(package: Path = ROOT / "simulator") -> str:
    """Markdown: a table per folder of the package, each module with what its docstring says."""
    folders: dict[str, list[Path]] = {}
    for path in sorted(package.rglob("*.py")):
        folders.setdefault(path.parent.relative_to(package.parent).as_posix(), []).append(path)
    parts = []
    for folder, paths in folders.items():
        rows = [f"| `{path.name}` | {first_paragraph(path).replace('|', '&#124;')} |" for path in paths]
        parts.append("\n".join([f"**`{folder}/`**", "", "| module | what it is |", "|---|---|", *rows]))
    return "\n\n".join(parts)


def on_page_markdown(markdown: str, page, config, files) -> str:
    """MkDocs' hook: the map put in where the page holds the marker."""
    return markdown.replace(MARKER, module_map()) if MARKER in markdown else markdown


if __name__ == "__main__":
    print(module_map())
