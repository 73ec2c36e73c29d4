"""The French catalogues are complete, and the committed .mo files match the .po files."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "fr" / "LC_MESSAGES"


def po_entries(path: Path) -> list[dict[str, str]]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr[n] and flags (enough for
    ours)."""
    entries, entry, key = [], {}, None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry:
                entries.append(entry)
            entry, key = {}, None
        elif line.startswith("#,"):
            entry["flags"] = line[2:].strip()
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[key] += ast.literal_eval(line)
        else:
            key, _, value = line.partition(" ")
            entry[key] = ast.literal_eval(value)
    return [e for e in entries if e.get("msgid")]


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_message_is_translated_and_compiled(domain):
    entries = po_entries(LOCALE / f"{domain}.po")
    with (LOCALE / f"{domain}.mo").open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)

    assert len(entries) > 50
    for entry in entries:
        assert "fuzzy" not in entry.get("flags", ""), entry["msgid"]
        if "msgid_plural" in entry:
            assert entry["msgstr[0]"] and entry["msgstr[1]"], entry["msgid"]
            assert catalog.ngettext(entry["msgid"], entry["msgid_plural"], 2) == entry["msgstr[1]"]
        elif "msgctxt" in entry:
            assert entry["msgstr"], entry["msgid"]
            compiled_text = catalog.pgettext(entry["msgctxt"], entry["msgid"])
            assert compiled_text == entry["msgstr"], entry["msgid"]
        else:
            assert entry["msgstr"], entry["msgid"]
            assert catalog.gettext(entry["msgid"]) == entry["msgstr"], entry["msgid"]


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_the_daily_is_never_called_a_challenge_in_french(domain):
    """Issue 40: friend challenges are « défis »; the daily is « le Farkle du jour », never « le
    défi du jour », so that a French player can tell the two apart."""
    called = []
    for entry in po_entries(LOCALE / f"{domain}.po"):
        text = " ".join(v for k, v in entry.items() if k.startswith("msgstr")).lower()
        about_the_daily_alone = "daily" in entry["msgid"].lower() and (
            "challenge" not in entry["msgid"].lower()
        )
        if re.search(r"défis? du jour", text) or (about_the_daily_alone and "défi" in text):
            called.append(entry["msgid"])
    assert called == []
