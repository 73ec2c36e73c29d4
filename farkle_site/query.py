"""Query strings read strictly: every parameter typed, and a bad one refused (400), not ignored.

DRF reads a query string as a form: it ignores names it does not know, keeps the last of a
repeated name, treats an empty value as absent, and reads ``1``, ``yes`` or ``on`` as true and
`` 7``, ``7.0`` or ``7_0`` as numbers. A client that sends any of these has made a mistake the
answer should show, so a ``QuerySerializer`` refuses them, each with the parameter's name.
"""

from __future__ import annotations

import re
from typing import Any

from rest_framework import serializers

# Digits only, with a sign: no spaces, decimal point, exponent or underscore (which int() reads).
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,19}")


class QuerySerializer(serializers.Serializer):
    """The parameters of one endpoint's query string: each of its fields at most once and never
    empty, and no other name."""

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "lists"):
            # A QueryDict: judge every name as given, then hand the fields one value each, as a
            # plain dict, so that none is read with a form's leniency.
            errors: dict[str, list[str]] = {}
            values: dict[str, str] = {}
            for name, given in data.lists():
                if name not in self.fields:
                    taken = ", ".join(self.fields) or "none"
                    errors[name] = [f"Not a parameter of this endpoint (it takes: {taken})."]
                elif len(given) > 1:
                    errors[name] = ["Given more than once; give it once."]
                elif given[0] == "":
                    errors[name] = ["Empty; give a value or leave the parameter out."]
                else:
                    values[name] = given[0]
            if errors:
                raise serializers.ValidationError(errors)
            data = values
        return super().to_internal_value(data)


class QueryIntegerField(serializers.IntegerField):
    """A whole number written in digits (``7`` or ``-7``), not ``7.0``, `` 7`` or ``7_0``."""

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not _WHOLE_NUMBER.fullmatch(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class QueryBooleanField(serializers.BooleanField):
    """``true`` or ``false``, as the schema writes a boolean, and nothing else."""

    default_error_messages = {"invalid": "Must be true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if data == "true":
            return True
        if data == "false":
            return False
        self.fail("invalid")
