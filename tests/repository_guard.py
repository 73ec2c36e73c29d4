"""Refuse, during the test run, every file opened outside the repository.

A clone must run its tests with nothing beside it. A test (or the code under test) that reads a
file from a folder next to the checkout passes on a developer's machine and fails everywhere else,
so the whole run watches Python's ``open`` audit event and refuses any path that is neither in the
repository nor in the interpreter, the system or the temporary folder.
"""

import os
import sys
import sysconfig
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class ReadOutsideRepository(Exception):
    """A test opened a file outside the repository (not an OSError, so nothing swallows it)."""


def _both(roots: set[str]) -> tuple[str, ...]:
    # As given and with symbolic links resolved, whichever way a path reaches the hook.
    return tuple(sorted(roots | {os.path.realpath(root) for root in roots}))


# The interpreter and its packages (the virtual environment), wherever they live.
INTERPRETER = _both(
    {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        *sysconfig.get_paths().values(),
    }
)


def _allowed_roots() -> tuple[str, ...]:
    roots = {
        tempfile.gettempdir(),
        # The operating system's own files: libraries, time zones, certificates, /proc and devices.
        "/usr",
        "/lib",
        "/lib64",
        "/etc",
        "/proc",
        "/sys",
        "/dev",
        "/run",
        "/tmp",
        "/var/tmp",
    }
    return _both(roots)


ALLOWED = _allowed_roots()

# Every refused path, in order: a refusal that some code caught still fails the run.
violations: list[str] = []

_active = False


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root + os.sep)


# The folder holding the checkout: its other entries are exactly what a fresh clone lacks, so they
# stay refused even when that folder is itself inside an allowed one (a clone in a fresh temporary
# folder, as `.ci/run` makes), unless it is the temporary folder itself.
_BESIDE = str(ROOT.parent)
_BESIDE_REFUSED = os.path.realpath(_BESIDE) != os.path.realpath(tempfile.gettempdir())


def _inside(path: str) -> bool:
    if _under(path, str(ROOT)) or any(_under(path, root) for root in INTERPRETER):
        return True
    if _BESIDE_REFUSED and _under(path, _BESIDE):
        return False
    return any(_under(path, root) for root in ALLOWED)


def _audit(event: str, args: tuple) -> None:
    if not _active or event != "open":
        return
    path = args[0]
    if isinstance(path, int) or path is None:
        return  # an already open file descriptor
    path = os.fsdecode(path)
    absolute = os.path.abspath(path)
    if _inside(absolute) or _inside(os.path.realpath(absolute)):
        return
    violations.append(absolute)
    raise ReadOutsideRepository(f"opened {absolute}, outside the repository {ROOT}")


def install() -> None:
    """Start refusing paths outside the repository, once per process."""
    global _active
    if not _active:
        # An audit hook cannot be removed: it stays for the life of the test process.
        sys.addaudithook(_audit)
        _active = True


def forgive(path: Path) -> None:
    """Drop a refusal a test provoked on purpose."""
    violations.remove(os.path.abspath(path))
