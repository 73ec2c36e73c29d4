"""The stylesheets parse as written: a rule left open swallows every rule after it as a nested
one, which browsers then apply nowhere (a merge once dropped two closing braces of site.css, and
the replay page, the season's headings and the challenge options lost their styles)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"
SHEETS = sorted(STATIC.rglob("*.css"))


def open_rules(css: str) -> list[str]:
    """Where a rule at the left margin opens inside another rule (not inside an at-rule such as
    @media), or where braces do not balance: each as 'line N: text'."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), css, flags=re.S)
    problems = []
    # The open blocks, innermost last: True for an at-rule's block.
    blocks: list[bool] = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        at_margin = line[:1] not in ("", " ", "\t", "}") and stripped.endswith("{")
        if at_margin and blocks and not all(blocks):
            problems.append(f"line {number}: {stripped} opens inside an unclosed rule")
        for char in line:
            if char == "{":
                blocks.append(stripped.startswith("@"))
            elif char == "}":
                if not blocks:
                    problems.append(f"line {number}: a closing brace with no rule open")
                else:
                    blocks.pop()
    if blocks:
        problems.append(f"the end: {len(blocks)} block(s) left open")
    return problems


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda path: path.name)
def test_every_rule_closes(sheet):
    assert open_rules(sheet.read_text()) == []


def test_the_check_sees_an_unclosed_rule():
    assert open_rules(".a {\n  color: red;\n\n.b {\n  color: blue;\n}\n") == [
        "line 4: .b { opens inside an unclosed rule",
        "the end: 1 block(s) left open",
    ]
    assert open_rules("@media (max-width: 480px) {\n.a {\n  color: red;\n}\n}\n") == []


def test_there_are_stylesheets():
    assert STATIC / "css" / "site.css" in SHEETS
