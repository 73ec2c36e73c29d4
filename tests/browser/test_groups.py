"""Two friends in one group through its link, both playing today's daily; the results panel;
French, a 360 px phone, the keyboard (issue 13 item 7)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .driver import api_play, today

# Every test here plays or reads today's daily: all in the sweep (tests/sweep.py).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.today]

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


def today_attempts() -> str:
    # Read in the test, on the suite's frozen clock (tests/clock.py), never when the module loads.
    return f"/api/daily/{today().isoformat()}/attempts"


def create_group(page: Page, name: str) -> str:
    """Create a group on /g/ with the form, as a player would; its code from the page it opens."""
    page.goto("/g/")
    page.locator("#group-name").fill(name)
    page.get_by_role("button", name="Create the group").click()
    page.wait_for_url(re.compile(r".*/g/[0-9A-Z]{7}$"))
    return page.url.rsplit("/", 1)[1]


def score_cells(page: Page) -> list[str]:
    cells = page.locator("[data-role=today-table] [data-role=cell-score]")
    expect(cells.first).to_be_visible()
    return cells.all_inner_texts()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_two_friends_meet_through_the_link_and_see_each_other_after_finishing(contexts):
    ann = contexts.page(**DESKTOP)
    code = create_group(ann, "Lunch crew")
    link = ann.locator("#invite-link").input_value()
    assert link.endswith(f"/g/{code}")

    # Bob, on a French phone, opens the link: a stranger sees a Join button, never the members.
    bob = contexts.page(locale="fr-FR", **PHONE)
    bob.goto(link)
    assert bob.evaluate("document.documentElement.lang") == "fr"
    expect(bob.locator("[data-role=today-table]")).to_have_count(0)
    no_sideways_scroll(bob)
    # Keyboard: the Join button is reached by Tab and pressed with Enter.
    join = bob.locator("[data-action=join]")
    for _ in range(40):
        bob.keyboard.press("Tab")
        if join.evaluate("node => node === document.activeElement"):
            break
    expect(join).to_be_focused()
    bob.keyboard.press("Enter")
    expect(bob.locator("[data-role=today-table]")).to_be_visible()
    no_sideways_scroll(bob)

    # Ann plays and finishes; Bob has not played: he sees that she finished, not her score.
    ann_game = api_play(ann.context, today_attempts())
    bob.reload()
    rows = bob.locator("[data-role=today-table] tbody tr")
    expect(rows).to_have_count(2)
    assert str(ann_game["score"]) not in "".join(score_cells(bob)).replace("\u202f", "").replace(
        "\u00a0", ""
    )
    ann.reload()
    ann_cells = score_cells(ann)
    assert ann_cells[0].replace(",", "") == str(ann_game["score"])
    assert ann_cells[1] == "not yet"

    # Bob plays and finishes: now both see both scores, best first.
    bob_game = api_play(bob.context, today_attempts())
    bob.reload()
    best_first = sorted([ann_game["score"], bob_game["score"]], reverse=True)
    shown = [c.replace("\u202f", "").replace("\u00a0", "") for c in score_cells(bob)]
    assert shown == [str(s) for s in best_first]
    no_sideways_scroll(bob)
    ann.reload()
    assert [c.replace(",", "") for c in score_cells(ann)] == [str(s) for s in best_first]

    # The end screen of the daily shows the group's standing and links to it.
    ann.goto("/")
    standings = ann.locator("[data-role=group-standings]")
    expect(standings).to_contain_text("Lunch crew")
    ann_rank = 1 if ann_game["score"] >= bob_game["score"] else 2
    expect(standings).to_contain_text(f"rank {ann_rank} of 2 played")
    expect(ann.locator("[data-role=see-groups]")).to_have_attribute("href", "/g/")


def test_the_results_panel_streaks_distribution_countdown_and_native_share(contexts, site):
    context = contexts.new(**PHONE)
    # A phone's share sheet: recorded instead of opened.
    context.add_init_script(
        "navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };"
    )
    page = contexts.watch(context.new_page())
    page.goto("/")
    attempt = api_play(context, today_attempts())
    page.reload()
    panel = page.locator("[data-role=results]")
    expect(panel.locator("[data-role=current-streak]")).to_have_text("1")
    expect(panel.locator("[data-role=best-streak]")).to_have_text("1")
    expect(panel.locator("[data-role=my-distribution] rect.bar.mine")).to_have_count(1)
    expect(panel.locator("[data-role=next-daily]")).to_have_text(re.compile(r"\d\d:\d\d:\d\d"))
    # Issue 40: on a phone the panel is folded below the verdict and Share.
    page.locator("[data-role=end-more] summary").click()
    expect(panel.locator("[data-role=group-standings] a[href='/g/']")).to_be_visible()
    no_sideways_scroll(page)
    # The ten squares fit one line at 360 px.
    strip = page.locator("[data-play] .turn-strip")
    assert strip.evaluate("node => node.scrollWidth <= node.clientWidth + 1")
    assert strip.evaluate("node => node.getClientRects().length") == 1
    line = strip.evaluate("node => parseFloat(getComputedStyle(node).lineHeight) || 0")
    assert strip.bounding_box()["height"] < 2 * max(line, 20)

    page.locator("[data-action=share]").click()
    page.wait_for_function("window.__shared !== undefined")
    shared = page.evaluate("window.__shared.text")
    assert shared.startswith(f"Farkle Daily {today().isoformat()}: ")
    assert f"{site}/daily/{today().isoformat()}" in shared
    # The system sheet took it: the clipboard's fallback box stays hidden.
    expect(page.locator("[data-role=share-fallback]")).to_be_hidden()
    assert attempt["state"] == "finished"


def test_screenshots_of_a_group_and_the_results_panel(contexts, folder):
    ann = contexts.page(**DESKTOP)
    code = create_group(ann, "Lunch crew")
    bob = contexts.page(**DESKTOP)
    bob.goto(f"/g/{code}")
    bob.locator("[data-action=join]").click()
    expect(bob.locator("[data-role=today-table]")).to_be_visible()
    api_play(ann.context, today_attempts())
    api_play(bob.context, today_attempts())
    for name, options in (("desktop", DESKTOP), ("phone", PHONE)):
        page = ann if name == "desktop" else contexts.watch(ann.context.new_page())
        page.set_viewport_size(options["viewport"])
        page.goto(f"/g/{code}")
        expect(page.locator("[data-role=all-table] tbody tr")).to_have_count(2)
        page.screenshot(path=folder / f"group-{name}.png", full_page=True)
        # Issue 40: a season table cut at 360 px (its six columns, long names, big totals)
        # scrolls sideways, and a line says so; a table that fits needs no such line.
        wrap = page.locator("[data-role=season] .table-scroll").last
        hint = page.locator("[data-role=scroll-hint]")
        assert not wrap.evaluate("node => node.scrollWidth > node.clientWidth + 1")
        expect(hint).to_be_hidden()
        if name == "phone":
            # A season's worth of points, as a busy group's all-time total would read.
            wrap.locator("td.num").last.evaluate(
                "cell => { cell.textContent = '1,234,567,890'; cell.style.whiteSpace = 'nowrap'; }"
            )
            page.evaluate("window.dispatchEvent(new Event('resize'))")
            assert wrap.evaluate("node => node.scrollWidth > node.clientWidth + 1")
            expect(hint).to_be_visible()
            expect(hint).to_have_text("The tables have more columns: swipe them sideways.")
        page.goto("/")
        expect(page.locator("[data-role=group-standings] li")).to_have_count(1)
        page.locator("[data-role=results]").scroll_into_view_if_needed()
        page.screenshot(path=folder / f"results-{name}.png", full_page=True)


def test_a_removed_friend_is_told_plainly_until_the_creator_lets_them_back(contexts):
    """Issue 39 item 1, as the two players see it: Ann removes Bob, who cannot rejoin and reads
    why in French on his phone; she lets him back, then gives the group a new code."""
    ann = contexts.page(**DESKTOP)
    code = create_group(ann, "Lunch crew")
    bob = contexts.page(locale="fr-FR", **PHONE)
    bob.goto(f"/g/{code}")
    bob.locator("[data-action=join]").click()
    expect(bob.locator("[data-role=today-table]")).to_be_visible()
    bob_name = bob.evaluate("fetch('/api/me').then(r => r.json()).then(me => me.name)")

    # Ann removes Bob, confirming what it means.
    asked = []
    ann.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    ann.reload()
    today_rows = ann.locator("[data-role=today-table] tbody tr")
    expect(today_rows).to_have_count(2)
    ann.get_by_role("button", name=f"Remove {bob_name}").click()
    removed = ann.locator("[data-role=removed] li")
    expect(removed).to_have_count(1)
    expect(removed).to_contain_text(bob_name)
    expect(ann.locator("[data-role=members] li")).to_have_count(1)
    # Issue 40: gone from today's table at once, not on the next reload.
    expect(today_rows).to_have_count(1)
    expect(today_rows).not_to_contain_text(bob_name)
    assert asked == [
        f"Remove {bob_name} from the group? They cannot join again unless you let them back."
    ]

    # Bob opens the group's link again: told plainly, in French, with no Join button.
    bob.goto(f"/g/{code}")
    notice = bob.locator("[data-role=removed-notice]")
    expect(notice).to_contain_text("Vous avez été retiré de ce groupe")
    expect(notice).to_contain_text(
        "Le créateur de « Lunch crew » vous a retiré du groupe. Vous ne pouvez pas le rejoindre "
        "à nouveau, sauf s’il vous réadmet."
    )
    expect(bob.locator("[data-action=join]")).to_have_count(0)
    expect(bob.locator("[data-role=today-table]")).to_have_count(0)
    no_sideways_scroll(bob)

    # Ann lets him back: he joins again with the same link.
    ann.get_by_role("button", name=f"Let {bob_name} back").click()
    expect(ann.locator("[data-role=removed-block]")).to_be_hidden()
    bob.reload()
    bob.locator("[data-action=join]").click()
    expect(bob.locator("[data-role=today-table]")).to_be_visible()

    # Ann gives the group a new code: her page moves to it, Bob stays a member, the old link
    # finds nothing.
    ann.get_by_role("button", name="Change the code").click()
    ann.wait_for_url(lambda url: re.search(r"/g/[0-9A-Z]{7}$", url) and code not in url)
    new = ann.url.rsplit("/", 1)[1]
    expect(ann.locator("#invite-code")).to_have_value(f"{new[:3]}-{new[3:]}")
    expect(ann.locator("[data-role=members] li")).to_have_count(2)
    assert len(asked) == 2 and asked[1].startswith("Give the group a new code?")
    # Issue 40: a rename shows in the heading and in the tab's title, without a reload.
    expect(ann).to_have_title("Lunch crew · Farkle Daily")
    ann.locator("#rename-name").fill("Dinner crew")
    ann.get_by_role("button", name="Rename", exact=True).click()
    expect(ann.locator("[data-role=group-name]")).to_have_text("Dinner crew")
    expect(ann).to_have_title("Dinner crew · Farkle Daily")
    bob.goto(f"/g/{code}")
    expect(bob.locator("h1")).to_have_text("Farkle ! Rien ici.")
    # The old code, in the page's message, is grouped as codes are everywhere.
    expect(bob.locator("main")).to_contain_text(f"{code[:3]}-{code[3:]}")
    bob.goto(f"/g/{new}")
    expect(bob.locator("[data-role=today-table]")).to_be_visible()
