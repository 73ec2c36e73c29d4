"""The suite's clock (tests/clock.py): frozen at its instant here and in the processes a test
starts, whatever the real date of the run (issue 44)."""

import ast
import datetime
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clock import parse_instant, suite_instant
from tests.moments import NOON
from tests.repository_guard import ROOT

READ_THE_CLOCK = "import datetime; print(datetime.datetime.now(datetime.UTC).isoformat())"


def test_a_test_runs_at_the_suites_instant():
    assert datetime.datetime.now(datetime.UTC) == suite_instant()


def test_a_process_a_test_starts_begins_at_the_same_instant():
    done = subprocess.run(
        [sys.executable, "-c", READ_THE_CLOCK], cwd=ROOT, capture_output=True, text=True, check=True
    )
    seen = datetime.datetime.fromisoformat(done.stdout.strip())
    # Such a process runs on from the instant (it waits on timeouts of its own).
    assert suite_instant() <= seen < suite_instant() + datetime.timedelta(seconds=30)


def test_the_clock_fixture_starts_the_processes_at_noon_whatever_the_suites_instant(clock):
    # (A ``clock.move_to`` later in a test is not followed: the processes took their start.)
    done = subprocess.run(
        [sys.executable, "-c", READ_THE_CLOCK], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert datetime.datetime.fromisoformat(done.stdout.strip()).date() == NOON.date()


@pytest.mark.real_clock
def test_a_real_clock_test_reads_the_real_time():
    # NOON is in the past of any run of this suite; the real clock is later.
    assert datetime.datetime.now(datetime.UTC) > NOON


@pytest.mark.parametrize(
    ("text", "instant"),
    [
        ("2028-02-29T23:59:59Z", datetime.datetime(2028, 2, 29, 23, 59, 59, tzinfo=datetime.UTC)),
        ("2027-01-01T01:00:00+01:00", datetime.datetime(2027, 1, 1, tzinfo=datetime.UTC)),
    ],
)
def test_an_instant_is_read_in_utc(text, instant):
    assert parse_instant(text) == instant


@pytest.mark.parametrize("text", ["2028-02-29T23:59:59", "tomorrow", "2027-02-29T00:00:00Z"])
def test_an_instant_without_an_offset_or_not_a_date_is_refused(text):
    with pytest.raises(ValueError, match=text):
        parse_instant(text)


# What an unpinned browser test reads the day through: today's date or dice, the home page (today's
# daily), today's board, /me, a group's page, the daily API.
READS_THE_DAY = ("today()", "daily_game(", "finished_daily(", "/api/daily/", 'goto("/")')
READS_THE_DAY += ('goto("/", ', 'goto("/leaderboard', 'goto("/me"', 'goto("/g/')


def _is_mark(node: ast.expr, name: str) -> bool:
    """``pytest.mark.<name>``, called or not."""
    node = node.func if isinstance(node, ast.Call) else node
    return (
        isinstance(node, ast.Attribute)
        and node.attr == name
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "mark"
    )


def _uses_clock(node: ast.expr) -> bool:
    return (
        _is_mark(node, "usefixtures")
        and isinstance(node, ast.Call)
        and any(isinstance(a, ast.Constant) and a.value == "clock" for a in node.args)
    )


def _sweep_marks(path: Path) -> dict[str, tuple[bool, bool, bool]]:
    """Each test function of a file: (marked ``today``, pinned by ``clock``, reads the day)."""
    source = path.read_text()
    tree = ast.parse(source)
    module_marks: list[ast.expr] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            value = node.value
            module_marks += value.elts if isinstance(value, ast.List | ast.Tuple) else [value]
    tests = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            marks = [*module_marks, *node.decorator_list]
            marked = any(_is_mark(m, "today") for m in marks)
            pinned = any(_uses_clock(m) for m in marks) or "clock" in [
                a.arg for a in node.args.args
            ]
            text = ast.get_source_segment(source, node) or ""
            tests[node.name] = (marked, pinned, any(token in text for token in READS_THE_DAY))
    return tests


def test_the_sweep_runs_the_tests_that_read_the_day_and_its_files_hold_them():
    # tests/sweep.py runs ``-m today`` over its FILES: a file left off the list, or a list file
    # whose marks were lost, would leave date-dependent tests out of the sweep in silence.
    from tests.sweep import FILES

    marked_files = set()
    unmarked_readers = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        name = path.relative_to(ROOT).as_posix()
        for test, (marked, pinned, reads) in _sweep_marks(path).items():
            if marked:
                marked_files.add(name)
            elif reads and not pinned and name.startswith("tests/browser/"):
                unmarked_readers.append(f"{name}::{test}")
    assert marked_files == set(FILES)
    assert unmarked_readers == []
    # The ones the sweep exists for (issue 44), by name.
    swept = _sweep_marks(ROOT / "tests/browser/test_play.py")
    assert swept["test_the_live_score_of_a_selection_comes_from_the_keep_options"][0]
    assert _sweep_marks(ROOT / "tests/browser/test_usability.py")[
        "test_a_day_is_written_one_way_per_language"
    ] == (True, False, True)


def test_the_sweep_check_sees_a_mark_a_pin_and_a_read(tmp_path):
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "import pytest\n"
        "pytestmark = [pytest.mark.django_db]\n"
        "@pytest.mark.today\n"
        "def test_marked(contexts):\n"
        "    page.goto('/rules')\n"
        "def test_pinned(contexts, clock):\n"
        "    day = today()\n"
        "@pytest.mark.usefixtures('clock')\n"
        "def test_pinned_by_mark(contexts):\n"
        '    page.goto("/")\n'
        "def test_reads(contexts):\n"
        '    page.goto("/me")\n'
    )
    assert _sweep_marks(sample) == {
        "test_marked": (True, False, False),
        "test_pinned": (False, True, True),
        "test_pinned_by_mark": (False, True, True),
        "test_reads": (False, False, True),
    }
