"""A leaderboard's plain query string is read exactly as its serializer reads it
(``leaderboard_query``, daily/apis/puzzles.py)."""

from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from play.apis.puzzles import leaderboard_query
from play.apis.schemas import LeaderboardQuerySerializer

NAMES = st.sampled_from(["page", "accounts", "Page", "format", "", "page ", "acc%6Funts"])
VALUES = st.one_of(
    st.integers(-3, 10**12).map(str),
    st.sampled_from(
        ["", "1", "0", "true", "false", "True", "yes", "on", "01", "2.0", " 3", "+4", "1e3"]
    ),
    st.sampled_from(["%31", "1+", "\u0663", "x", "-0", "9" * 30]),
)
PARTS = st.one_of(
    st.tuples(NAMES, VALUES).map(lambda p: f"{p[0]}={p[1]}"),
    NAMES,
    st.sampled_from(["=", "==1", "page==2"]),
)
QUERIES = st.lists(PARTS, max_size=4).flatmap(
    lambda parts: st.sampled_from(["&", ";", "&&"]).map(lambda sep: sep.join(parts))
)
PLAIN = st.builds(
    lambda page, accounts, order: "&".join(
        part for part in ([page, accounts] if order else [accounts, page]) if part is not None
    ),
    st.none() | st.integers(1, 999_999_999).map(lambda n: f"page={n}"),
    st.none() | st.sampled_from(["1", "0", "true", "false"]).map(lambda v: f"accounts={v}"),
    st.booleans(),
)


def _serializer(text: str):
    serializer = LeaderboardQuerySerializer(data=QueryDict(text))
    return dict(serializer.validated_data) if serializer.is_valid() else None


@settings(max_examples=800)
@given(QUERIES)
def test_a_plain_query_reads_as_the_serializer_reads_it(text):
    plain = leaderboard_query(text)
    if plain is not None:
        assert plain == _serializer(text)


@settings(max_examples=300)
@given(PLAIN)
def test_every_query_the_sites_pages_send_is_read_plainly(text):
    plain = leaderboard_query(text)
    assert plain is not None and plain == _serializer(text)


def test_a_query_left_to_the_serializer():
    # Written by hand: what DRF reads otherwise (or refuses), each left to it.
    for text in ("page=0", "page=01", "page=1&page=2", "accounts=yes", "page=%31", "page", "x=1"):
        assert leaderboard_query(text) is None, text
    assert leaderboard_query("") == {"page": 1, "accounts": False}
    assert leaderboard_query("accounts=1&page=7") == {"page": 7, "accounts": True}
