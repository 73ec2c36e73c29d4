"""The plain action body is read exactly as the serializer validates it (daily/apis/attempts.py)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from daily.apis.attempts import AttemptActionsApi, plain_action

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 10_003),
    st.floats(allow_nan=False),
    st.sampled_from(["roll", "keep", "bank", "", "1", "ROLL"]),
    st.lists(st.one_of(st.integers(-1, 7), st.booleans(), st.text(max_size=1)), max_size=8),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)
BODIES = st.dictionaries(
    st.sampled_from(["step", "action", "dice", "then", "extra"]), VALUES, max_size=5
)
VALID = st.builds(
    lambda step, action, dice, then: {"step": step, "action": action, "dice": dice, "then": then},
    st.integers(0, 10_000),
    st.sampled_from(["roll", "keep"]),
    st.lists(st.integers(0, 5), max_size=6),
    st.sampled_from(["roll", "bank"]),
) | st.builds(lambda step: {"step": step, "action": "roll"}, st.integers(0, 10_000))


def _serializer(body: dict):
    serializer = AttemptActionsApi.ActionSerializer(data=body)
    return dict(serializer.validated_data) if serializer.is_valid() else None


@settings(max_examples=600)
@given(BODIES)
def test_a_plain_body_reads_as_the_serializer_validates_it(body):
    plain = plain_action(body)
    if plain is not None:
        assert plain == _serializer(body)


@settings(max_examples=300)
@given(VALID)
def test_every_body_a_client_sends_is_read_plainly(body):
    assert plain_action(body) == _serializer(body) == body
