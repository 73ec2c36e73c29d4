"""Real Chromium (Debian's) driven by Playwright against a live server.

A missing browser fails these tests: CI installs it (.ci/run), and a skipped browser test would
hide a broken site.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SEED_SECRET = "test-secret"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture
def folder(tmp_path) -> Path:
    """Where a test writes its screenshots: docs/screenshots/ under `make screenshots`
    (FARKLE_SCREENSHOTS=1), a temporary folder otherwise, so a test run changes no tracked file."""
    if os.environ.get("FARKLE_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path


# Per module, not per session: while Playwright runs, the variable below is set, and the tests
# of other folders must not inherit it (`check --deploy` refuses it, rightly).
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does).")
    # Playwright's sync API keeps an event loop in this thread; Django refuses database calls
    # from a thread with a running loop unless told that this one is synchronous code.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            yield launched
            launched.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def site(live_server, settings) -> str:
    """The live server's base URL, its dice seeded with the known test secret."""
    settings.FARKLE_SEED_SECRET = SEED_SECRET
    return live_server.url


class Contexts:
    """Opens browser contexts (one per player) and checks that no page raised a script error."""

    def __init__(self, browser: Browser, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.opened: list[BrowserContext] = []
        self.errors: list[str] = []

    def new(self, **options) -> BrowserContext:
        options.setdefault("viewport", {"width": 1200, "height": 900})
        options.setdefault("locale", "en-GB")
        context = self.browser.new_context(base_url=self.base_url, **options)
        context.set_default_timeout(10_000)
        # The page's clock stands where the server's does (the suite's frozen instant,
        # tests/clock.py), not at the real date: a countdown or a turn's clock shows what the
        # server counts from, and stays there (its timers still run); a test moves it with
        # ``set_fixed_time``.
        context.clock.set_fixed_time(datetime.datetime.now(datetime.UTC))
        self.opened.append(context)
        return context

    def page(self, **options) -> Page:
        page = self.new(**options).new_page()
        self.watch(page)
        return page

    def watch(self, page: Page) -> Page:
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))
        # Refusals the page handles (a 400 for a wrong password, a 409 for a taken name) are
        # logged by the browser as failed loads: only script errors count.
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"{page.url}: {message.text}")
                if message.type == "error"
                and not message.text.startswith("Failed to load resource")
                else None
            ),
        )
        return page

    def close(self) -> None:
        for context in self.opened:
            context.close()


@pytest.fixture
def contexts(browser: Browser, site: str) -> Iterator[Contexts]:
    opened = Contexts(browser, site)
    yield opened
    opened.close()
    assert opened.errors == []
