"""Display names and challenge titles: the rules of docs/play.md and a short deny-list, as pure
functions."""

from __future__ import annotations

import functools
import re
import unicodedata

from django.utils.translation import gettext as _

from farkle_site.domain import Invalid

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

# Look-alike characters read as the letters they stand for (leetspeak): "n1gg3r", "$h!t",
# "ph4gg0t", "fvck". 1, ! and | read as i or as l, v as v or as u, "ph" as "ph" or as "f", so
# every combination of those readings is checked.
_LEET = str.maketrans({"0": "o", "3": "e", "4": "a", "5": "s", "6": "g", "7": "t", "8": "b",
                       "9": "g", "@": "a", "$": "s", "€": "e", "+": "t"})  # fmt: skip
_LEET_ONE = ("i", "l")
_ONE_LIKE = "1!|"

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
_STAFF_CLAIMS = frozenset(
    {"mod", "mods", "modo", "modos", "staff", "official", "officiel", "officielle"}
)
_STAFF_WORDS = _STAFF_CLAIMS | {"support", "system", "systeme", "root"}
# A title is a sentence: "Merci pour le support", "Le système D", "Root beer night" are ordinary
# there, so a title is refused for the words that claim to speak for the site only.
_TITLE_STAFF_WORDS = _STAFF_CLAIMS

# Innocent words that hold a refused one (the Scunthorpe problem), removed before looking;
# "shiitake" holds a stretched slur once repeated letters count.
_INNOCENT = ("badminton", "scunthorpe", "shiitake")


def text_tidy(text: str) -> str:
    """Text as stored: Unicode NFC, trimmed, each run of spaces (or line breaks) made one space."""
    return " ".join(unicodedata.normalize("NFC", text).split())


# Letter-like symbols that no normalisation reads as their letter: "🅰" (NEGATIVE SQUARED LATIN
# CAPITAL LETTER A), "🇦" (REGIONAL INDICATOR SYMBOL LETTER A), "ᴀ" (LATIN LETTER SMALL CAPITAL A),
# "ı" (LATIN SMALL LETTER DOTLESS I): read by their Unicode name.
_NAMED_LETTER = re.compile(
    r"\b(?:LATIN (?:CAPITAL |SMALL )?LETTER (?:SMALL CAPITAL |DOTLESS )?"
    r"|REGIONAL INDICATOR SYMBOL LETTER )([A-Z])$"
)


@functools.cache
def _letter_read(char: str) -> str:
    """A character as the deny-list reads it: a letter-like symbol as its letter; invisible
    characters (format characters such as the zero-width joiner, and marks such as variation
    selectors) as nothing; any other as itself."""
    category = unicodedata.category(char)
    if category == "Cf" or category.startswith("M"):
        return ""
    named = _NAMED_LETTER.search(unicodedata.name(char, ""))
    return named.group(1).lower() if named else char


def _skeleton(text: str) -> str:
    """Lower-cased, without accents or invisible characters, compatibility forms read as their
    letters (fullwidth, circled, mathematical, superscript), Cyrillic and Greek look-alikes read
    as Latin."""
    # Case folded after the compatibility decomposition as well: "𝐀" decomposes to "A".
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    bare = decomposed if decomposed.isascii() else "".join(map(_letter_read, decomposed))
    # Ligatures NFKD keeps whole: œ and æ in French words.
    return bare.translate(_CONFUSABLES).replace("œ", "oe").replace("æ", "ae")


def _readings(text: str) -> list[str]:
    """Every way the deny-list reads a text: the skeleton with look-alike characters read as
    letters, each ambiguous one (1, v, ph) both ways."""
    base = _skeleton(text).translate(_LEET)
    readings = []
    for one in _LEET_ONE:
        with_one = base.translate(str.maketrans(dict.fromkeys(_ONE_LIKE, one)))
        for u_for_v in (False, True):
            with_v = with_one.replace("v", "u") if u_for_v else with_one
            readings.extend((with_v, with_v.replace("ph", "f")))
    return list(dict.fromkeys(readings))


def _words(text: str) -> list[list[str]]:
    """The readings of a text, each as its words, split on everything but letters and digits."""
    return [[w for w in re.split(r"[\W_]+", reading) if w] for reading in _readings(text)]


def _stretchable(term: str) -> re.Pattern[str]:
    """A term as a pattern whose letters may be repeated ("fuuuck", "ffuucckk"), each run no
    shorter than in the term, so that "Niger" is not read as the slur with a double g."""
    runs = [(match.group(1), len(match.group(0))) for match in re.finditer(r"(.)\1*", term)]
    return re.compile("".join(f"{re.escape(char)}{{{count},}}" for char, count in runs))


# Compiled once: every name and title is read against them. Each list is one pattern of
# alternatives, one per term, which finds a match exactly when one of its terms does (a term's
# pattern holds no group), in one call rather than one per term: every fresh guest's generated
# name is checked (the midnight rush, docs/performance.md).
_ANY_OF = {
    terms: re.compile("|".join(f"(?:{_stretchable(term).pattern})" for term in sorted(terms)))
    for terms in (
        _DENIED_ANYWHERE,
        _DENIED_WORDS,
        _STAFF_ANYWHERE,
        _STAFF_WORDS,
        _TITLE_STAFF_WORDS,
    )
}


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


# A title's words are also read joined in runs of up to this many ("Ad min", "Far kle Dai ly").
_RUN_MAX = 4


def _runs(words: list[str]) -> list[str]:
    """Runs of 2 to ``_RUN_MAX`` consecutive words, joined up."""
    return [
        "".join(words[start:end])
        for start in range(len(words))
        for end in range(start + 2, min(start + _RUN_MAX, len(words)) + 1)
    ]


def _innocent_removed(candidate: str) -> str:
    for innocent in _INNOCENT:
        candidate = candidate.replace(innocent, "")
    return candidate


def _denied(
    text: str, anywhere: frozenset[str], whole: frozenset[str], *, across_words: bool
) -> bool:
    """Whether a deny-list term is in the text: ``anywhere`` terms inside a word, or across
    words when ``across_words`` (a name, read with its separators removed); ``whole`` terms as
    a whole word, or as the whole text spelled out. Letters may be repeated in either.

    A text read word by word (a title: joined up, "this hit" would hold a slur) is also read in
    runs of a few words joined up: an ``anywhere`` term that starts the run ("Ad min", "ad
    mins"; not "bad minute", where it starts inside a word) or a ``whole`` term that is the run
    ("r ape", "na zi") is refused too."""
    anywhere_term, whole_term = _ANY_OF[anywhere], _ANY_OF[whole]
    for words in _words(text):
        candidates = [*words, *_spelled_out(words)]
        if across_words:
            candidates.append("".join(words))
        if any(anywhere_term.search(_innocent_removed(c)) for c in candidates):
            return True
        if any(whole_term.fullmatch(c) for c in candidates):
            return True
        if across_words:
            continue
        for run in _runs(words):
            if anywhere_term.match(_innocent_removed(run)) or whole_term.fullmatch(run):
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
    """The tidied name, or Invalid ``invalid_name`` saying which rule of docs/play.md it breaks."""
    # The reason is shown to the player as it stands, so it speaks the request's language.
    tidy = text_tidy(name)
    if len(tidy) < NAME_MIN_LENGTH:
        raise Invalid(
            "invalid_name",
            _("A name has at least %(min)d characters.") % {"min": NAME_MIN_LENGTH},
        )
    if len(tidy) > NAME_MAX_LENGTH:
        raise Invalid(
            "invalid_name",
            _("A name has at most %(max)d characters; this one has %(count)d.")
            % {"max": NAME_MAX_LENGTH, "count": len(tidy)},
        )
    bad = _refused_character(tidy)
    if bad is not None:
        raise Invalid(
            "invalid_name",
            _("A name holds only letters, digits, spaces, '-' and '_', not %(char)s.")
            % {"char": _shown(bad)},
        )
    if _DIGIT_RUN.search(tidy):
        raise Invalid(
            "invalid_name",
            _("A name cannot look like a score or a throw of dice: at most two digits in a row."),
        )
    if not any(char.isalpha() for char in tidy):
        raise Invalid("invalid_name", _("A name needs at least one letter."))
    if _denied(tidy, _STAFF_ANYWHERE, _STAFF_WORDS, across_words=True):
        raise Invalid("invalid_name", _("A name cannot pass for the site's staff."))
    if _denied(tidy, _DENIED_ANYWHERE, _DENIED_WORDS, across_words=True):
        raise Invalid("invalid_name", _("This name is not allowed; please choose another."))
    return tidy


def title_clean(text: str, *, max_length: int) -> str:
    """A challenge's title, tidied, or Invalid ``invalid_title`` saying what is wrong: longer
    than ``max_length``, an invisible character, a slur, or a claim to be the site's staff. The
    deny-list reads it as it reads a name (compatibility forms, case, look-alikes), word by word
    (docs/play.md)."""
    # The reason is shown to the player as it stands, so it speaks the request's language.
    tidy = text_tidy(text)
    if not tidy:
        raise Invalid("invalid_title", _("The title is empty."))
    if len(tidy) > max_length:
        raise Invalid(
            "invalid_title",
            _("The title has at most %(max)d characters; this one has %(count)d.")
            % {"max": max_length, "count": len(tidy)},
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
        raise Invalid(
            "invalid_title", _("The title cannot hold %(char)s.") % {"char": _shown(char)}
        )
    if _denied(tidy, _STAFF_ANYWHERE, _TITLE_STAFF_WORDS, across_words=False):
        raise Invalid("invalid_title", _("The title cannot pass for the site's staff."))
    if _denied(tidy, _DENIED_ANYWHERE, _DENIED_WORDS, across_words=False):
        raise Invalid("invalid_title", _("This title is not allowed; please write another."))
    return tidy
