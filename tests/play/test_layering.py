"""The apps depend on the core, play/, not on each other: challenges/ and groups/ never import
daily/ (a challenge is a puzzle keyed by a code, a group compares players' games), and play/
imports none of them but for the two names below, which are on their way out."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = {"play", "daily", "challenges", "groups"}

# play/ reading daily/: an official start counted in the process's recent counters of its daily
# (the day's "n played" read by the midnight rush), and the refreeze of a closed puzzle's
# statistics on release, which lives with the close. None may be added; each goes once its use
# does.
KNOWN_CORE_IMPORTS_OF_DAILY = {
    ("play/services/attempts.py", "daily.services.puzzles"),
    ("play/services/foresight.py", "daily.services"),
}


def _imports(path: Path) -> set[str]:
    """The modules a source file imports, absolute names, at any depth (lazy imports too)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def _app_imports(app: str) -> set[tuple[str, str]]:
    sources = sorted((ROOT / app).rglob("*.py"))
    assert sources
    return {
        (str(path.relative_to(ROOT)), module)
        for path in sources
        for module in _imports(path)
        if module.split(".")[0] in APPS - {app}
    }


@pytest.mark.parametrize("app", ["challenges", "groups"])
def test_puzzle_kinds_and_groups_never_import_daily(app):
    assert {(path, m) for path, m in _app_imports(app) if m.split(".")[0] == "daily"} == set()


@pytest.mark.parametrize("app", ["challenges", "groups"])
def test_puzzle_kinds_and_groups_import_play(app):
    # The scan reads the imports it means to: each of these apps is built on the core.
    assert any(m.split(".")[0] == "play" for _, m in _app_imports(app))


def test_play_imports_no_other_app_but_the_known_names():
    assert _app_imports("play") <= KNOWN_CORE_IMPORTS_OF_DAILY


def test_daily_never_imports_challenges_or_groups():
    found = _app_imports("daily")
    assert {(path, m) for path, m in found if m.split(".")[0] in {"challenges", "groups"}} == set()
