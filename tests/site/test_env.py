import pytest
from django.core.exceptions import ImproperlyConfigured

from farkle_site.env import env_bool, env_int, env_list, env_str

NAME = "FARKLE_TEST_VARIABLE"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", True), ("TRUE", True), ("yes", True), ("On", True)]
    + [("0", False), ("false", False), ("NO", False), ("off", False)],
)
def test_env_bool_parses_words(monkeypatch, value, expected):
    monkeypatch.setenv(NAME, value)

    assert env_bool(NAME, default=not expected) is expected


@pytest.mark.parametrize("value", [None, ""])
def test_env_bool_unset_or_empty_gives_default(monkeypatch, value):
    if value is None:
        monkeypatch.delenv(NAME, raising=False)
    else:
        monkeypatch.setenv(NAME, value)

    assert (env_bool(NAME, default=True), env_bool(NAME, default=False)) == (True, False)


@pytest.mark.parametrize("value", ["maybe", "2", "y", "enabled"])
def test_env_bool_rejects_other_values(monkeypatch, value):
    monkeypatch.setenv(NAME, value)

    with pytest.raises(ImproperlyConfigured, match=f"^{NAME}='{value}' is not a boolean"):
        env_bool(NAME, default=False)


def test_env_int_parses_integer(monkeypatch):
    monkeypatch.setenv(NAME, " 3600 ")

    assert env_int(NAME, default=0) == 3600


@pytest.mark.parametrize("value", ["one", "1.5", "1e3", "0x10"])
def test_env_int_rejects_non_integers(monkeypatch, value):
    monkeypatch.setenv(NAME, value)

    with pytest.raises(ImproperlyConfigured, match=f"^{NAME}='{value}' is not an integer"):
        env_int(NAME, default=0)


def test_env_int_unset_gives_default(monkeypatch):
    monkeypatch.delenv(NAME, raising=False)

    assert env_int(NAME, default=42) == 42


def test_env_list_splits_on_commas(monkeypatch):
    monkeypatch.setenv(NAME, "farkle.example, www.farkle.example")

    assert env_list(NAME, default=[]) == ["farkle.example", "www.farkle.example"]


@pytest.mark.parametrize("value", ["a,,b", "a,", " , "])
def test_env_list_rejects_empty_items(monkeypatch, value):
    monkeypatch.setenv(NAME, value)

    with pytest.raises(ImproperlyConfigured, match="has an empty item"):
        env_list(NAME, default=[])


def test_env_list_unset_gives_copy_of_default(monkeypatch):
    monkeypatch.delenv(NAME, raising=False)
    default = ["localhost"]

    result = env_list(NAME, default=default)

    assert result == ["localhost"]
    assert result is not default


def test_env_str_empty_gives_default(monkeypatch):
    monkeypatch.setenv(NAME, "")

    assert env_str(NAME, "fallback") == "fallback"
