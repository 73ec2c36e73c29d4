"""Display names: the rules of docs/play.md and a short deny-list, as pure functions."""

from __future__ import annotations

import re
import unicodedata

from farkle_site.errors import ApiError

NAME_MIN_LENGTH = 3
NAME_MAX_LENGTH = 24
_SEPARATORS = " -_"

# Letters (any script), ASCII digits and the separators. Other digits (², ٣, ３) are refused
# rather than judged: they look like scores without being caught as such.
_ALLOWED_DIGITS = frozenset("0123456789")
# Combining marks allowed in a row after a letter (NFC has already merged the common accents).
_MAX_MARKS = 2

# Three or more digits in a row, separators between them or not: "Badger 1 1 1 5", "Ace 10000".
# A leaderboard shows names beside scores, so a name must not read as a score or a throw.
_DIGIT_RUN = re.compile(r"[0-9](?:[ _-]*[0-9]){2,}")

# Latin look-alikes from Cyrillic and Greek, so that "аdmin" with a Cyrillic "а" is "admin".
_CONFUSABLES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x",
    }
)  # fmt: skip

# Leetspeak digits; 1 reads as i or l, so both readings are checked.
_LEET_I = str.maketrans("0134578", "oieastb")
_LEET_L = str.maketrans("0134578", "oleastb")

# Refused anywhere in the name, once separators are removed ("f u c k", "Sh1tHead"): long or
# rare enough that no ordinary word of English or French hides them.
_DENIED_ANYWHERE = frozenset(
    {
        # English
        "fuck", "shit", "cunt", "nigger", "nigga", "faggot", "whore", "slut", "bitch",
        "rapist", "hitler", "pedophil", "paedophil", "wanker", "dickhead", "motherf",
        # French
        "salope", "connard", "connasse", "encule", "putain", "bougnoul", "youpin",
        "bamboula", "merde", "gouine", "pouffiasse", "salaud", "pedophile",
    }
)  # fmt: skip

# Refused as a whole word only: inside a longer word they are innocent ("Grapefruit",
# "Computer", "Canal", "Unique", "Montenegro", "Ashkenazi", "Spice").
_DENIED_WORDS = frozenset(
    {
        # English
        "rape", "nazi", "nazis", "anal", "arse", "cum", "porn", "fag", "fags", "kkk", "kike",
        "spic", "chink", "tranny", "retard", "retards", "twat",
        # French
        "pute", "putes", "pd", "pede", "pedes", "conne", "tapette", "nique", "niquer", "negre",
        "negro", "fdp", "ntm", "nichon", "nichons", "batard",
    }
)  # fmt: skip

# Staff impersonation: refused anywhere once separators are removed ("Farkle-Daily", "TheAdmin").
_STAFF_ANYWHERE = frozenset(
    {"admin", "moderator", "moderateur", "moderatrice", "farkledaily", "webmaster", "sysop"}
)
# ... and as whole words only ("Mod" but not "Modest", "Staff" but not "Staffordshire").
_STAFF_WORDS = frozenset(
    {"mod", "mods", "modo", "staff", "support", "official", "officiel", "system", "systeme", "root"}
)

# Innocent words that hold a refused one (the Scunthorpe problem), removed before looking.
_INNOCENT = ("badminton", "scunthorpe")


def text_tidy(text: str) -> str:
    """Text as stored: Unicode NFC, trimmed, each run of spaces (or line breaks) made one space."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def _skeleton(text: str) -> str:
    """Lower-cased, without accents, Cyrillic and Greek look-alikes read as Latin."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    # Ligatures NFKD keeps whole: œ and æ in French words.
    return bare.translate(_CONFUSABLES).replace("œ", "oe").replace("æ", "ae")


def _words(text: str) -> list[list[str]]:
    """The ways the deny-list reads a text, each as its words: the skeleton with leetspeak
    digits read as letters, split on everything but letters and digits."""
    skeleton = _skeleton(text)
    return [
        [w for w in re.split(r"[\W_]+", skeleton.translate(leet)) if w]
        for leet in (_LEET_I, _LEET_L)
    ]


def _spelled_out(words: list[str]) -> list[str]:
    """Runs of single letters joined up: "f u c k" and "P-D" read as words."""
    joined, run = [], ""
    for word in [*words, ""]:
        if len(word) == 1:
            run += word
            continue
        if len(run) > 1:
            joined.append(run)
        run = ""
    return joined


def _denied(
    text: str, anywhere: frozenset[str], whole: frozenset[str], *, across_words: bool
) -> bool:
    """Whether a deny-list term is in the text: ``anywhere`` terms inside a word, or across
    words when ``across_words`` (a name, read with its separators removed); ``whole`` terms as
    a whole word, or as the whole text spelled out."""
    for words in _words(text):
        candidates = [*words, *_spelled_out(words), "".join(words)]
        if not across_words:
            candidates.pop()
        for candidate in candidates:
            for innocent in _INNOCENT:
                candidate = candidate.replace(innocent, "")
            if any(term in candidate for term in anywhere):
                return True
        if not whole.isdisjoint(candidates):
            return True
    return False


def _refused_character(name: str) -> str | None:
    """The first character a name may not hold, or None."""
    marks = 0
    for index, char in enumerate(name):
        # Scripts such as Devanagari write with combining marks after a letter; a pile of them
        # is Zalgo text, and a mark after a digit or a space decorates nothing.
        if unicodedata.category(char).startswith("M"):
            marks += 1
            if marks <= _MAX_MARKS and index >= marks and name[index - marks].isalpha():
                continue
            return char
        marks = 0
        if not (char.isalpha() or char in _ALLOWED_DIGITS or char in _SEPARATORS):
            return char
    return None


def _shown(char: str) -> str:
    """A character as an error message can show it: invisible ones by their code point."""
    if char.isprintable() and not unicodedata.category(char).startswith("M"):
        return repr(char)
    return f"U+{ord(char):04X} ({unicodedata.name(char, 'unnamed')})"


def display_name_clean(name: str) -> str:
    """The tidied name, or ApiError ``invalid_name`` saying which rule of docs/play.md it breaks."""
    tidy = text_tidy(name)
    if len(tidy) < NAME_MIN_LENGTH:
        raise ApiError("invalid_name", f"A name has at least {NAME_MIN_LENGTH} characters.")
    if len(tidy) > NAME_MAX_LENGTH:
        raise ApiError(
            "invalid_name",
            f"A name has at most {NAME_MAX_LENGTH} characters; this one has {len(tidy)}.",
        )
    bad = _refused_character(tidy)
    if bad is not None:
        raise ApiError(
            "invalid_name",
            f"A name holds only letters, digits, spaces, '-' and '_', not {_shown(bad)}.",
        )
    if _DIGIT_RUN.search(tidy):
        raise ApiError(
            "invalid_name",
            "A name cannot look like a score or a throw of dice: at most two digits in a row.",
        )
    if not any(char.isalpha() for char in tidy):
        raise ApiError("invalid_name", "A name needs at least one letter.")
    if _denied(tidy, _STAFF_ANYWHERE, _STAFF_WORDS, across_words=True):
        raise ApiError("invalid_name", "A name cannot pass for the site's staff.")
    if _denied(tidy, _DENIED_ANYWHERE, _DENIED_WORDS, across_words=True):
        raise ApiError("invalid_name", "This name is not allowed; please choose another.")
    return tidy


def text_clean(text: str, *, what: str, max_length: int) -> str:
    """Short public free text, such as a challenge's title: tidied, at most ``max_length``
    characters, nothing invisible, no slur; ApiError ``invalid`` naming ``what`` otherwise."""
    tidy = text_tidy(text)
    if not tidy:
        raise ApiError("invalid", f"The {what} is empty.")
    if len(tidy) > max_length:
        raise ApiError(
            "invalid", f"The {what} has at most {max_length} characters; this one has {len(tidy)}."
        )
    marks = 0
    for index, char in enumerate(tidy):
        category = unicodedata.category(char)
        if category.startswith("M"):
            marks += 1
            if marks <= _MAX_MARKS and index >= marks and not tidy[index - marks].isspace():
                continue
        else:
            marks = 0
            # Control and format characters (a right-to-left override, a zero-width space) hide
            # or reorder text; the zero-width joiner only glues emoji together.
            if not category.startswith("C") or char == "\u200d":
                continue
        raise ApiError("invalid", f"The {what} cannot hold {_shown(char)}.")
    # A sentence is read word by word: joined up, "this hit" would hold a slur.
    if _denied(tidy, _DENIED_ANYWHERE, _DENIED_WORDS, across_words=False):
        raise ApiError("invalid", f"This {what} is not allowed; please write another.")
    return tidy
