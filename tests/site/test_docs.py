"""The project's documents: their examples run, their figures hold, their links lead somewhere."""

import hashlib
import hmac
import re
from fractions import Fraction
from pathlib import Path

import farkle
from tests.farkle.vectors import load

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def python_block(text: str) -> str:
    return text.split("```python", 1)[1].split("```", 1)[0]


def test_fairness_snippet_recomputes_the_vectors():
    block = python_block((DOCS / "fairness.md").read_text())
    throw_source = block[block.index("def throw") : block.index("print(")]
    vectors = load("dice.json")
    for puzzle in vectors["dailies"] + vectors["challenges"]:
        seed = bytes.fromhex(puzzle["seed_hex"])
        namespace = {"seed": seed, "hmac": hmac}
        exec(throw_source, namespace)
        assert hashlib.sha256(seed).hexdigest() == puzzle["commitment"]
        for roll in puzzle["rolls"]:
            throw = namespace["throw"]
            assert throw(roll["turn"], roll["roll"]) == roll["dice"]
            assert throw(roll["turn"], roll["roll"], 2) == roll["dice"][:2]


def test_the_engine_meets_the_risks_and_par_of_the_rules():
    rules = (DOCS / "rules.md").read_text()
    section = rules.split("### Farkle risk", 1)[1].split("### Par", 1)[0]
    risks = {
        int(dice): Fraction(exact)
        for dice, exact in re.findall(r"^\| (\d) \| [\d.]+ % \| (\d+/\d+) \|$", section, re.M)
    }
    assert sorted(risks) == [1, 2, 3, 4, 5, 6]
    assert {n: Fraction(farkle.farkle_risk(n)) for n in risks} == risks
    par = re.search(r"worth about\s+\*\*([\d.]+)\*\* points", rules).group(1)
    assert f"{farkle.solve('farkle-challenge').expected_turn():.1f}" == par


def test_every_local_link_of_the_readme_leads_to_a_file():
    readme = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(((?!https?:|#)[^)#\s]+)", readme)
    assert "docs/rules.md" in targets and "LICENSE" in targets
    assert [t for t in targets if not (ROOT / t).exists()] == []


def _sections(text: str) -> dict[str, str]:
    """The layout's tree cut at its top-level folders: ``{"play": "<its lines>", ...}``."""
    tree = text.split("```", 2)[1]
    parts = re.split(r"^(\w+)/ ", tree, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_layout_names_every_module_of_every_app():
    sections = _sections((DOCS / "architecture.md").read_text())
    unnamed = []
    for app in ("play", "daily", "challenges", "groups"):
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT / app)
            # Packages are named as folders; migrations are the database's history, not modules
            # anyone looks for by purpose.
            if path.name == "__init__.py" or relative.parts[0] == "migrations":
                continue
            if relative.parts[0] == "management":
                named = "management/" in sections[app]
            else:
                named = re.search(rf"(?<![\w.]){re.escape(path.name)}", sections[app]) is not None
            if not named:
                unnamed.append(f"{app}/{relative}")
    assert unnamed == []
