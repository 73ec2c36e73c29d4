"""daily/ knows nothing of groups: the end screen reaches them through the API and the pages."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_daily_never_imports_groups():
    sources = sorted((ROOT / "daily").rglob("*.py"))
    assert sources
    assert [str(p.relative_to(ROOT)) for p in sources if "groups" in _imports(p)] == []


def test_groups_never_import_challenges():
    # Codes are read by the shared farkle_site.codes, not through the challenges app.
    sources = sorted((ROOT / "groups").rglob("*.py"))
    assert [str(p.relative_to(ROOT)) for p in sources if "challenges" in _imports(p)] == []
