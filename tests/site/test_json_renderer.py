"""The API's JSON (farkle_site.drf.FastJSONRenderer) holds the values DRF's renderer writes."""

import datetime
import decimal
import json
import uuid

from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings

from farkle_site.drf import FastJSONRenderer

FAST, DRF = FastJSONRenderer(), JSONRenderer()

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    # Past 64 bits orjson refuses: DRF's way then.
    st.integers(min_value=-(2**70), max_value=2**70),
    # Any text: accents, the line separator, lone surrogates, which DRF escapes.
    st.text(),
    st.datetimes(timezones=st.just(datetime.UTC)),
    st.dates(),
    st.uuids(),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
)
_keys = st.one_of(st.text(max_size=8), st.integers(min_value=-5, max_value=5))


def _json(scalars):
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_keys, inner, max_size=5),
        max_leaves=30,
    )


@given(_json(_scalars))
def test_without_floats_the_same_bytes_as_drf(data):
    assert FAST.render(data, "application/json") == DRF.render(data, "application/json")


@given(_json(st.one_of(_scalars, st.floats(allow_nan=False, allow_infinity=False))))
def test_with_floats_the_same_values_as_drf(data):
    # In a list: a bare None renders as nothing, which is not JSON to compare.
    assert json.loads(FAST.render([data], "application/json")) == json.loads(
        DRF.render([data], "application/json")
    )


def test_types_orjson_leaves_to_drf_are_written_as_drf_writes_them():
    data = {
        "at": datetime.datetime(2026, 12, 1, 12, 0, 0, 123456, tzinfo=datetime.UTC),
        "price": decimal.Decimal("1.50"),
        "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
        "note": gettext_lazy("Held"),
        "name": "Élodie",
    }
    assert FAST.render(data) == DRF.render(data)
    # DRF's conventions, by hand: UTC as Z, a Decimal as a number, \\u escapes.
    assert FAST.render(data) == (
        b'{"at":"2026-12-01T12:00:00.123456Z","price":1.5,'
        b'"id":"12345678-1234-5678-1234-567812345678","note":"Held","name":"\\u00c9lodie"}'
    )


def test_an_indent_asked_is_drfs():
    data = {"a": [1, 2]}
    assert FAST.render(data, "application/json; indent=2") == b'{\n  "a": [\n    1,\n    2\n  ]\n}'
    # An indent of 0 from the context (DRF's browsable API sets it) still breaks lines.
    assert FAST.render(data, None, {"indent": 0}) == DRF.render(data, None, {"indent": 0})
    assert FAST.render(data, None, {"indent": 0}) == b'{\n"a": [\n1,\n2\n]\n}'


def test_the_payloads_are_orjsons_own_work(monkeypatch):
    def refused(*args, **kwargs):
        raise AssertionError("DRF's renderer was used")

    monkeypatch.setattr(JSONRenderer, "render", refused)
    data = {"name": "Élodie 🎲", "dice": [1, 5], "at": datetime.date(2026, 12, 1), "x": "\x7f"}
    # By hand: Python's ASCII escapes, a surrogate pair for the die, DEL escaped too.
    assert FAST.render(data) == (
        b'{"name":"\\u00c9lodie \\ud83c\\udfb2","dice":[1,5],"at":"2026-12-01","x":"\\u007f"}'
    )


def test_an_iterator_is_read_once():
    def rows():
        yield "é"
        yield 2**70

    assert (
        FAST.render({"rows": rows()})
        == DRF.render({"rows": rows()})
        == (b'{"rows":["\\u00e9",1180591620717411303424]}')
    )


def test_nothing_renders_nothing():
    assert FAST.render(None) == b""


def test_the_api_renders_with_it():
    assert [FastJSONRenderer] == api_settings.DEFAULT_RENDERER_CLASSES
