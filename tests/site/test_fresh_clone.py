"""A clone with nothing beside it runs its tests: nothing reads outside the repository."""

import os
import re
from pathlib import Path

import pytest

from tests import repository_guard
from tests.repository_guard import ROOT, ReadOutsideRepository

# Spelled in pieces so this file does not match what it looks for.
OUTSIDE_REFERENCES = re.compile(r"\.\./" + "shared|/work/" + "shared|FARKLE_VECTORS" + "_DIR")


def test_reading_a_folder_beside_the_repository_fails_the_test():
    # The vectors once came from a folder next to the checkout; the run refuses such a read.
    beside = ROOT.parent / "shared" / "vectors" / "dice.json"

    with pytest.raises(ReadOutsideRepository):
        beside.read_text()
    repository_guard.forgive(beside)


def test_reading_an_absolute_path_outside_the_repository_fails_the_test():
    elsewhere = Path("/opt/elsewhere/notes.md")

    with pytest.raises(ReadOutsideRepository), elsewhere.open():
        pass
    repository_guard.forgive(elsewhere)


def test_the_repository_itself_and_the_interpreter_stay_readable():
    assert (ROOT / "tests" / "farkle" / "data" / "dice.json").read_text().startswith("{")
    assert (ROOT.parent / ROOT.name / "README.md").read_text().startswith("# Farkle Daily")


# Not the project's files: tools' caches, the virtual environment, generated output.
SKIPPED_FOLDERS = {".git", ".venv", "__pycache__", ".hypothesis", ".ruff_cache", "staticfiles"}


def test_no_file_of_the_project_refers_outside_the_repository():
    referring = []
    for folder, folders, files in os.walk(ROOT):
        folders[:] = [name for name in folders if name not in SKIPPED_FOLDERS]
        for name in files:
            path = Path(folder, name)
            if path.suffix in {".png", ".mo", ".pyc", ".sqlite3"}:
                continue
            if OUTSIDE_REFERENCES.search(path.read_text(errors="replace")):
                referring.append(str(path.relative_to(ROOT)))
    assert referring == []
