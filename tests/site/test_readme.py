"""The README's examples do what it says."""

import hashlib
import re
import subprocess
import sys
from pathlib import Path

from tests.farkle.vectors import load

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def test_readme_verification_snippet_recomputes_the_vectors():
    block = README.split("## Provably fair", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    throw_source = block[block.index("def throw") : block.index("print(")]
    for daily in load("dice.json")["dailies"]:
        seed = bytes.fromhex(daily["seed_hex"])
        namespace = {"seed": seed, "hmac": __import__("hmac")}
        exec(throw_source, namespace)
        assert hashlib.sha256(seed).hexdigest() == daily["commitment"]
        for roll in daily["rolls"]:
            assert namespace["throw"](roll["turn"], roll["roll"]) == roll["dice"]


def test_readme_engine_examples_print_what_the_readme_shows():
    section = README.split("## The engine from the command line", 1)[1].split("\n## ", 1)[0]
    block = section.split("```console", 1)[1].split("```", 1)[0]
    for command, shown in re.findall(r"^\$ (.+)\n((?:(?!\$ ).*\n)*)", block, flags=re.M):
        argv = command.split()[1:]  # python -m farkle …
        result = subprocess.run(
            [sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, check=True
        )
        assert result.stdout == shown, command
