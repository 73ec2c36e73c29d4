"""Every page carries a Content-Security-Policy without inline script, and a Permissions-Policy;
no template holds an inline script, an event-handler attribute or a style attribute (issue 10
item 12)."""

import re
from pathlib import Path

import pytest
from django.utils import timezone

from challenges.services import challenge_create
from play.services.players import player_create

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"
PAGES = ["/", "/leaderboard", "/daily/2026-11-28", "/me", "/rules", "/verify", "/c/"]
PAGES += ["/challenges/new", "/no-such-page", "/api/docs/", "/api/daily/today", "/healthz"]


def _directives(policy: str) -> dict[str, list[str]]:
    parts = [part.split() for part in policy.split(";") if part.strip()]
    return {name: values for name, *values in parts}


@pytest.mark.django_db
@pytest.mark.usefixtures("clock")
def test_every_page_has_a_csp_without_inline_script_and_a_permissions_policy(client):
    now = timezone.now()
    code = challenge_create(creator=player_create(now=now), title="Friday", now=now).puzzle.code
    for path in [*PAGES, f"/c/{code}"]:
        response = client.get(path)
        assert response.status_code in (200, 404), path
        policy = _directives(response["Content-Security-Policy"])
        assert policy["script-src"] == ["'self'"], path
        assert policy["default-src"] == ["'self'"], path
        assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"], path
        assert policy["frame-ancestors"] == ["'none'"], path
        # Only Swagger UI, which injects a <style> element, may use inline style elements.
        assert ("'unsafe-inline'" in policy["style-src"]) == (path == "/api/docs/"), path
        # No style attribute either: style-src governs them, with nothing to loosen it.
        assert "style-src-attr" not in policy and "style-src-elem" not in policy, path
        features = dict(item.split("=") for item in response["Permissions-Policy"].split(", "))
        assert features["camera"] == features["geolocation"] == "()", path
        assert features["microphone"] == features["payment"] == "()", path


def test_no_template_has_an_inline_script_a_handler_or_a_style_attribute():
    for template in TEMPLATES.rglob("*.html"):
        text = template.read_text()
        for tag in re.findall(r"<script\b[^>]*>", text):
            assert "src=" in tag, (template, tag)
        assert not re.search(r"<[^>]*\son[a-z]+\s*=", text), template
        assert "javascript:" not in text, template
        assert "<style" not in text, template
        assert not re.search(r"<[^>]*\sstyle\s*=", text), template


def test_no_script_writes_a_style_attribute():
    # A script may set element.style (the CSS object model, which the policy allows), never the
    # attribute, nor markup holding one (a tag in a string, as the templates are checked).
    for script in SCRIPTS.rglob("*.js"):
        text = script.read_text()
        assert not re.search(r"setAttribute\(\s*[\"']style[\"']", text), script
        assert not re.search(r"<[a-z][^>]*\sstyle\s*=", text), script
