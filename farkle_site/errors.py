"""Errors of every JSON endpoint: ``{"detail", "code"}`` with the matching 4xx status."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.http.multipartparser import MultiPartParserError
from redis.exceptions import ConnectionError as RedisConnectionError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

import farkle
from farkle_site.domain import Conflict, DomainError, Forbidden, Invalid, NotFound, Unavailable

# The one place where a refusal becomes an HTTP status.
STATUS_OF_ERROR: dict[type[DomainError], int] = {
    Invalid: status.HTTP_400_BAD_REQUEST,
    Forbidden: status.HTTP_403_FORBIDDEN,
    NotFound: status.HTTP_404_NOT_FOUND,
    Conflict: status.HTTP_409_CONFLICT,
    Unavailable: status.HTTP_503_SERVICE_UNAVAILABLE,
}
# The engine's refusals: an action the game's state refuses is a conflict, any other is malformed.
_ENGINE_CONFLICTS = {"finished", "wrong_state", "below_entry_minimum"}


def _engine_refusal(error: farkle.FarkleError) -> DomainError:
    kind = Conflict if error.code in _ENGINE_CONFLICTS else Invalid
    return kind(error.code, error.detail)


# Seconds a client is asked to wait when the database cannot be reached (a restart, a failover).
RETRY_AFTER_UNAVAILABLE = 30

UNAVAILABLE = {
    "detail": "The service is briefly unavailable; please try again in a moment.",
    "code": "unavailable",
}


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether the exception, or one it was raised from, is a lost or refused connection to the
    database or to the shared cache (as opposed to a bug in a query)."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, OperationalError | InterfaceError | RedisConnectionError):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


# DRF's own codes, renamed where the API names them differently (README).
_RENAMED_CODES = {"permission_denied": "forbidden", "not_authenticated": "forbidden"}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every error as JSON with a ``detail`` and a ``code``; None lets a real bug be a 500."""
    if database_unavailable(exc):
        return Response(
            UNAVAILABLE,
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_UNAVAILABLE)},
        )
    if isinstance(exc, farkle.FarkleError):
        exc = _engine_refusal(exc)
    if isinstance(exc, DomainError):
        code = next(
            (code for kind, code in STATUS_OF_ERROR.items() if isinstance(exc, kind)),
            status.HTTP_400_BAD_REQUEST,
        )
        response = Response({"detail": exc.message, "code": exc.code, **exc.shown}, status=code)
        if code == status.HTTP_503_SERVICE_UNAVAILABLE:
            response["Retry-After"] = "1"
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        # Raised by Django when the body is read (a form, or JSON read after a CSRF check).
        exc = exceptions.ParseError("The request body is too large.")
    elif isinstance(exc, MultiPartParserError):
        exc = exceptions.ParseError(f"Malformed multipart body: {exc}")
    elif isinstance(exc, SuspiciousOperation):
        exc = exceptions.ParseError("Malformed request.")
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        errors = exc.get_full_details()
        # A view may name the refusal code of a malformed field (an action's dice: invalid_dice).
        field_codes = getattr(context.get("view"), "field_error_codes", {})
        field = next(iter(errors), None) if isinstance(errors, dict) else None
        code = field_codes.get(field, "invalid")
        response.data = {"detail": _first_message(errors), "code": code, "errors": exc.detail}
    else:
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else "error"
        response.data = {"detail": str(exc.detail), "code": _RENAMED_CODES.get(code, code)}
    if isinstance(exc, exceptions.NotAuthenticated):
        response.status_code = status.HTTP_403_FORBIDDEN
    return response


def _first_message(errors: Any, field: str = "") -> str:
    """The first message of a (nested) validation error, prefixed with its field."""
    if isinstance(errors, dict) and "message" in errors:
        return (
            f"{field}: {errors['message']}"
            if field and field != "non_field_errors"
            else errors["message"]
        )
    if isinstance(errors, dict):
        name, value = next(iter(errors.items()))
        return _first_message(value, name if not field else f"{field}.{name}")
    if isinstance(errors, list) and errors:
        return _first_message(errors[0], field)
    return "Invalid input."
