"""Random strings in one read of the system's random source (farkle_site.random_strings, issue
15): the session key and the CSRF secret, each as uniform as Django's draw a character at a
time."""

from __future__ import annotations

import collections
import os
import string

import pytest
from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.middleware.csrf import CSRF_ALLOWED_CHARS

from farkle_site.random_strings import random_string
from farkle_site.sessions import SessionStore


def _fed(monkeypatch, *chunks: bytes) -> list[int]:
    """Make ``os.urandom`` answer ``chunks`` in turn; the sizes asked are returned."""
    asked: list[int] = []
    left = list(chunks)

    def read(size: int) -> bytes:
        asked.append(size)
        chunk = left.pop(0)
        assert len(chunk) == size
        return chunk

    monkeypatch.setattr(os, "urandom", read)
    return asked


@pytest.mark.parametrize(
    ("draw", "alphabet"),
    [
        (lambda: random_string(CSRF_ALLOWED_CHARS, 32), CSRF_ALLOWED_CHARS),
        (lambda: SessionStore()._get_new_session_key(), VALID_KEY_CHARS),
    ],
    ids=["csrf secret", "session key"],
)
def test_a_string_is_32_characters_of_its_alphabet_from_one_read(urandom_reads, draw, alphabet):
    drawn = draw()
    assert len(drawn) == 32 and set(drawn) <= set(alphabet)
    # A second read follows about once in 1.8 billion draws for the larger alphabet.
    assert urandom_reads == [44]


@pytest.mark.parametrize(
    ("alphabet", "each", "passed_over"),
    [
        # By hand: 256 = 4 × 62 + 8 and 256 = 7 × 36 + 4.
        (string.ascii_letters + string.digits, 4, 8),
        (string.ascii_lowercase + string.digits, 7, 4),
    ],
)
def test_each_character_stands_for_as_many_byte_values_and_the_rest_are_passed_over(
    monkeypatch, alphabet, each, passed_over
):
    usable = 256 - passed_over
    firsts = collections.Counter()
    rest = bytes(range(43))
    for value in range(256):
        _fed(monkeypatch, bytes([value]) + rest)
        drawn = random_string(alphabet, 32)
        assert len(drawn) == 32
        firsts[drawn[0] if value < usable else "passed over"] += 1
        # The byte after it, 0, stands for the alphabet's first character.
        assert value < usable or drawn[0] == alphabet[0]
    assert firsts.pop("passed over") == passed_over
    assert firsts == dict.fromkeys(alphabet, each)


def test_a_read_with_too_few_usable_bytes_is_followed_by_another(monkeypatch):
    asked = _fed(monkeypatch, bytes([255] * 24 + list(range(20))), bytes(range(62, 106)))
    drawn = random_string(CSRF_ALLOWED_CHARS, 32)
    # 20 characters from the first read, 12 from the second (bytes 62 to 73: 'a' to 'l').
    assert drawn == "abcdefghijklmnopqrst" + "abcdefghijkl"
    assert asked == [44, 44]
