"""Each deny-list is read with one pattern of alternatives: it must find a term exactly where
one of the terms, read alone, does (daily/rules/names.py)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from play.rules import names

LISTS = (
    names._DENIED_ANYWHERE,
    names._DENIED_WORDS,
    names._STAFF_ANYWHERE,
    names._STAFF_WORDS,
)
# Text built from the terms' own letters, whole terms and their stretched or cut pieces, so that
# near misses and matches are both common.
PIECES = sorted({term for terms in LISTS for term in terms})
text = st.lists(
    st.one_of(
        st.sampled_from(PIECES),
        st.sampled_from(PIECES).map(lambda t: t[: len(t) // 2]),
        st.sampled_from(PIECES).map(lambda t: t[len(t) // 2 :]),
        st.sampled_from(PIECES).map(lambda t: "".join(c * 2 for c in t)),
        st.text(alphabet="abcdefghiklmnoprstuyz", max_size=3),
    ),
    max_size=4,
).map("".join)


@settings(max_examples=400)
@given(terms=st.sampled_from(LISTS), candidate=text)
def test_one_pattern_finds_a_term_where_a_term_alone_does(terms, candidate):
    alone = [names._stretchable(term) for term in terms]
    combined = names._ANY_OF[terms]

    assert (combined.search(candidate) is not None) == any(p.search(candidate) for p in alone)
    assert (combined.fullmatch(candidate) is not None) == any(p.fullmatch(candidate) for p in alone)
