"""The project uses the libraries through their public API (issue 38's guard against the road back).

An upgrade of Django, DRF, redis-py, psycopg or gunicorn must not be able to break the site
silently, so the project's code (everything outside tests/) never:

- imports a private name (a leading underscore) of another package, or from a private module;
- reads a private attribute that the project does not define itself, nor any of the framework
  internals the site once reached into (``PRIVATE_OF_LIBRARIES``);
- overrides a method of a library's class that its documentation does not offer for overriding:
  a private one never, a public one only when ``DOCUMENTED_OVERRIDES`` names it with the page
  that offers it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import types
from pathlib import Path

import pytest

from tests.repository_guard import ROOT

# The project's own packages and scripts: what the guard reads. tests/ may reach into anything.
SKIPPED = {"tests", ".venv", ".git", "node_modules", "staticfiles", "docs", "locale"}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _project_files() -> list[Path]:
    files = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if parts[0] in SKIPPED or any(part.startswith(".") for part in parts):
            continue
        files.append(path)
    return files


def _project_packages() -> set[str]:
    return {path.parent.name for path in ROOT.glob("*/__init__.py")} - SKIPPED


# Framework internals the site once read or replaced (issue 38): never again, even under a name
# the project would also give something of its own.
PRIVATE_OF_LIBRARIES = {
    "_pools",  # Django's RedisCacheClient
    "_class",  # Django's RedisCache
    "_serializer",  # Django's RedisCacheClient
    "_client",  # Django's RedisCacheClient
    "_servers",  # Django's RedisCache
    "_cache",  # Django's cache backends and session stores
    "_get_connection_pool",
    "_get_connection_pool_index",
    "_session",  # Django's SessionBase
    "_session_cache",
    "_session_key",
    "_get_session",
    "_get_new_session_key",
    "_get_session_from_db",
    "_state",  # Django's Model instances
    "_prepare_plainly",
    "_request",  # DRF's Request
    "_connection",
    "_cursor",
}


# Underscored names that their library documents as public API.
DOCUMENTED_PRIVATE = {
    # Django's Model _meta API (docs: "Model _meta API"), and a model's default manager
    # (docs: "Managers", default managers).
    "_meta",
    "_default_manager",
    # collections.namedtuple's methods and fields, underscored so as not to clash with fields.
    "_replace",
    "_asdict",
    "_fields",
    "_make",
}


def _defined_private_names(trees: dict[Path, ast.AST]) -> set[str]:
    """Every private name the project gives something itself: functions, classes, variables,
    attributes it assigns, arguments."""
    names = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias) and node.asname:
                names.add(node.asname)
    return {name for name in names if _is_private(name)}


def private_uses(files: list[Path], packages: set[str]) -> list[str]:
    """Each place in ``files`` that imports or reads another package's private name."""
    trees = {path: ast.parse(path.read_text(), str(path)) for path in files}
    ours = _defined_private_names(trees) - PRIVATE_OF_LIBRARIES
    found = []
    for path, tree in trees.items():
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        private_and_not_ours = {
            node.attr
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute)
            and _is_private(node.attr)
            and node.attr not in ours | DOCUMENTED_PRIVATE
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] in packages:
                    continue
                modules = node.module.split(".")
                names = [alias.name for alias in node.names]
                for name in [*modules, *names]:
                    if _is_private(name):
                        found.append(f"{where}:{node.lineno}: from {node.module} import {name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if any(_is_private(part) for part in alias.name.split(".")):
                        found.append(f"{where}:{node.lineno}: import {alias.name}")
            elif isinstance(node, ast.Attribute) and node.attr in private_and_not_ours:
                found.append(f"{where}:{node.lineno}: .{node.attr}")
    return found


def test_no_project_code_imports_or_reads_a_private_name_of_another_package():
    assert private_uses(_project_files(), _project_packages()) == []


def test_the_guard_finds_each_kind_of_private_use(tmp_path):
    # Written as the site once had them (issue 38): each must be found, and the project's own
    # private helpers must not.
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from django.core.cache.backends.redis import RedisCacheClient\n"
        "from django.utils._os import safe_join\n"
        "from psycopg import _oids\n"
        "import gunicorn._compat\n"
        "\n"
        "def _mine(cache, instance, request):\n"
        "    cache._pools.get(0)\n"
        "    cache._class = RedisCacheClient\n"
        "    copy = instance._state.adding\n"
        "    return request._request, _mine, cache._never_defined_here\n"
    )
    found = private_uses([sample], set())
    assert sorted(line.split(": ", 1)[1] for line in found) == sorted(
        [
            "from django.utils._os import _os",
            "from psycopg import _oids",
            "import gunicorn._compat",
            "._pools",
            "._class",
            "._state",
            "._request",
            "._never_defined_here",
        ]
    )


# A library's public method that a class of the project overrides, with the documentation that
# offers it for overriding. Any other override of a library's method fails the test below.
DOCUMENTED_OVERRIDES = {
    # docs.djangoproject.com: class-based views, the model and admin references, applications.
    "django.views.generic.base.View": {"get", "post", "dispatch", "setup"},
    "django.views.generic.base.TemplateView": {"get_context_data"},
    "django.views.generic.base.ContextMixin": {"get_context_data"},
    "django.db.models.base.Model": {"clean"},
    "django.contrib.admin.options.ModelAdmin": {
        "get_queryset",
        "has_add_permission",
        "has_change_permission",
        "has_delete_permission",
        "get_readonly_fields",
        "get_actions",
    },
    "django.contrib.admin.options.BaseModelAdmin": {
        "get_queryset",
        "has_add_permission",
        "has_change_permission",
        "has_delete_permission",
        "get_readonly_fields",
    },
    "django.apps.config.AppConfig": {"ready"},
    "django.core.management.base.BaseCommand": {"add_arguments", "handle"},
    # Django's middleware: "Writing your own middleware" documents these hooks.
    "django.utils.deprecation.MiddlewareMixin": {
        "process_request",
        "process_response",
        "process_view",
    },
    "django.contrib.messages.middleware.MessageMiddleware": {"process_request"},
    # www.django-rest-framework.org: views, serializers, fields, parsers, renderers,
    # authentication, throttling, exceptions.
    "rest_framework.views.APIView": {
        "get",
        "post",
        "put",
        "patch",
        "delete",
        "get_throttles",
        "get_permissions",
        "get_authenticators",
        "initial",
        "get_exception_handler",
    },
    "rest_framework.serializers.BaseSerializer": {
        "to_representation",
        "to_internal_value",
        "validate",
        "create",
        "update",
    },
    "rest_framework.serializers.Serializer": {"to_representation", "to_internal_value", "validate"},
    "rest_framework.fields.Field": {"to_representation", "to_internal_value", "validate"},
    "rest_framework.fields.CharField": {"to_representation", "to_internal_value"},
    "rest_framework.fields.IntegerField": {"to_representation", "to_internal_value"},
    # "Custom fields": a field's .to_internal_value() and .to_representation() are its API
    # (farkle_site.query's strict query-string fields).
    "rest_framework.fields.BooleanField": {"to_representation", "to_internal_value"},
    "rest_framework.parsers.BaseParser": {"parse"},
    "rest_framework.parsers.JSONParser": {"parse"},
    "rest_framework.renderers.BaseRenderer": {"render"},
    "rest_framework.renderers.JSONRenderer": {"render"},
    "rest_framework.authentication.BaseAuthentication": {"authenticate", "authenticate_header"},
    "rest_framework.authentication.SessionAuthentication": {"authenticate", "enforce_csrf"},
    "rest_framework.throttling.BaseThrottle": {"allow_request", "wait", "get_ident"},
    "rest_framework.throttling.SimpleRateThrottle": {
        "get_cache_key",
        "allow_request",
        "wait",
        "get_rate",
    },
    # drf-spectacular's "Customization" page (step 7: AutoSchema's methods) and "Extensions".
    "drf_spectacular.openapi.AutoSchema": {
        "get_operation",
        "get_override_parameters",
        "get_tags",
        "get_operation_id",
        "get_description",
        "get_summary",
    },
    "drf_spectacular.extensions.OpenApiAuthenticationExtension": {"get_security_definition"},
    "drf_spectacular.views.SpectacularSwaggerView": {"get"},
    "drf_spectacular.views.SpectacularSwaggerSplitView": {"get"},
    # Celery's Task class: documented hooks.
    "celery.app.task.Task": {"on_failure", "on_retry", "on_success", "after_return"},
    # The standard library's documented extension points.
    "logging.Filter": {"filter"},
    "logging.Formatter": {"format"},
    "threading.local": set(),
    "builtins.Exception": set(),
    "builtins.ValueError": set(),
}


def _project_modules(packages: set[str]) -> list[str]:
    names = []
    for package in sorted(packages):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).with_suffix("")
            parts = list(relative.parts)
            if parts[-1] == "__init__":
                parts.pop()
            if "migrations" in parts or parts[-1] == "__main__":
                continue
            names.append(".".join(parts))
    return names


def _where(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def undocumented_overrides(modules: list[str], packages: set[str]) -> list[str]:
    """Each method a class of ``modules`` defines over one of a library's (a class outside
    ``packages``), unless that library documents it for overriding."""
    found = []
    for name in modules:
        module = importlib.import_module(name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            libraries = [
                base for base in cls.__mro__[1:] if base.__module__.split(".")[0] not in packages
            ]
            for attribute, value in vars(cls).items():
                # Methods only: a class attribute a library documents setting (an extension's
                # target_class, a serializer's Meta) is configuration, not a replaced method.
                method = isinstance(value, classmethod | staticmethod) or inspect.isfunction(value)
                if attribute.startswith("__") or not method:
                    continue
                owner = next((base for base in libraries if attribute in vars(base)), None)
                if owner is None or owner is object:
                    continue
                documented = DOCUMENTED_OVERRIDES.get(_where(owner), set())
                if _is_private(attribute) or attribute not in documented:
                    found.append(f"{_where(cls)}.{attribute} replaces {_where(owner)}'s")
    return found


def test_no_project_class_replaces_a_library_method_not_offered_for_overriding():
    packages = _project_packages()
    assert undocumented_overrides(_project_modules(packages), packages) == []


@pytest.mark.parametrize(
    ("base", "method"),
    [
        ("django.core.handlers.wsgi.WSGIHandler", "resolve_request"),
        ("django.core.cache.backends.redis.RedisCacheClient", "_get_connection_pool"),
        ("django.contrib.sessions.backends.cached_db.SessionStore", "_get_new_session_key"),
        ("django.middleware.locale.LocaleMiddleware", "process_request"),
        ("rest_framework.negotiation.DefaultContentNegotiation", "select_renderer"),
    ],
)
def test_the_guard_finds_a_replaced_method(base, method, monkeypatch):
    # The kinds of class the site once had (issue 38), in a module of a package of its own.
    module_name, class_name = base.rsplit(".", 1)
    library_class = getattr(importlib.import_module(module_name), class_name)
    sample = types.ModuleType("guardsample")
    replaced = type("Replaced", (library_class,), {method: lambda self, *args: None})
    replaced.__module__ = sample.__name__
    sample.Replaced = replaced
    monkeypatch.setitem(sys.modules, sample.__name__, sample)
    owner = next(base for base in library_class.__mro__ if method in vars(base))

    found = undocumented_overrides(["guardsample"], {"guardsample"})

    assert found == [f"guardsample.Replaced.{method} replaces {_where(owner)}'s"]
