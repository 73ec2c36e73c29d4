"""The OpenAPI schema documents every error an operation can answer, not only its successes."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers


# The body of every refusal (``farkle_site.errors``), with the values some refusals show.
class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField()
    attempt_id = serializers.IntegerField(
        required=False, help_text="`wrong_state`: the official game to finish first."
    )
    opens_at = serializers.DateTimeField(
        required=False, help_text="`not_open`: when the puzzle opens."
    )
    closes_at = serializers.DateTimeField(
        required=False,
        help_text="`not_closed`: when the puzzle closes, and retries on its dice may start.",
    )
    decisions = serializers.IntegerField(
        required=False, help_text="`invalid_decision`: how many decisions the game has."
    )
    errors = serializers.JSONField(
        required=False, help_text="`invalid` and a field's own code: each field's errors."
    )


# What each error status means, for every operation that can give it (the codes the README lists).
_ERROR_DESCRIPTIONS = {
    400: "Malformed request: `parse_error` for a body that is not JSON (or too large or deeply "
    "nested), `invalid` or a field's own code for a value that does not fit.",
    403: "`forbidden`: the CSRF check failed (send `X-CSRFToken` with the `csrftoken` cookie).",
    404: "`not_found`: no such puzzle, attempt, challenge or endpoint.",
    409: "A conflict with the current state (`stale_step`, `finished`, `day_closed`, "
    "`name_taken`, `not_revealed`...).",
    414: f"`uri_too_long`: the address (path and query string) is longer than "
    f"{settings.MAX_URL_LENGTH} characters.",
    415: "`unsupported_media_type`: the body is not `application/json`.",
    429: "`throttled`: too many requests; wait `Retry-After` seconds.",
    503: "`unavailable`: the database cannot be reached for a moment; wait `Retry-After` seconds.",
}
_RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 0},
        "required": True,
        "description": "Seconds to wait before trying again.",
    }
}
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class ErrorsAutoSchema(AutoSchema):
    """drf-spectacular's schema, plus the error answers every operation shares, and the form of
    each URL parameter a view names in ``path_parameters`` (a ``<str:code>`` of the URL is only
    a string to drf-spectacular; the view knows it is six characters of base 32)."""

    def get_override_parameters(self):
        return [*getattr(self.view, "path_parameters", []), *super().get_override_parameters()]

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation.setdefault("responses", {})
        for code in self._error_statuses(operation):
            answer = responses.setdefault(str(code), self._error_response(code))
            if code in (429, 503):
                answer.setdefault("headers", {}).update(_RETRY_AFTER)
        return operation

    def _error_statuses(self, operation: dict[str, Any]) -> list[int]:
        parameters = operation.get("parameters", [])
        unsafe = self.method in _UNSAFE
        # Any address can be too long (farkle_site.middleware.UrlLengthMiddleware).
        codes = [414, 503]
        # Any parameter other than a whole number (which the URL itself checks) can be malformed.
        if unsafe or any(p.get("schema", {}).get("type") != "integer" for p in parameters):
            codes.append(400)
        if unsafe:
            codes += [403, 409]
        if "requestBody" in operation:
            codes.append(415)
        if any(p.get("in") == "path" for p in parameters):
            codes.append(404)
        if self._throttled():
            codes.append(429)
        return sorted(codes)

    def _throttled(self) -> bool:
        try:
            return bool(self.view.get_throttles())
        except AttributeError:
            return False

    def _error_response(self, code: int) -> dict[str, Any]:
        component = self.resolve_serializer(ErrorSerializer, "response")
        return {
            "description": _ERROR_DESCRIPTIONS[code],
            "content": {"application/json": {"schema": component.ref}},
        }
