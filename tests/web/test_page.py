"""The browser's page in a real browser: Chromium headless, driven by Playwright, against a
real server on loopback with real bots. Skipped, saying so, where no Chromium is found."""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import expect
from tyros_protocol.cards import CARD_NAMES

from tests.web.harness import (
    ERRORS,
    Server,
    join,
    needs_chromium,
    open_page,
    play_on,
    playwright,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = needs_chromium


def test_a_whole_game_played_through_the_page_against_bots(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "web", 4)
    server.bots("web", 3, 4)
    page.wait_for_selector("#board svg")
    assert "Your hand:" in page.inner_text("#hand")
    assert "yours are ringed in gold" in page.inner_text("#legend")
    clicks = play_on(page, "#turn .last-round")  # (a seat placed its last tile)
    assert "game ends with this round" in page.inner_text("#turn")
    assert page.inner_text("#where").split(",")[0].endswith("(the last)")
    clicks += play_on(page, "#score:not([hidden])")
    assert clicks > 10
    sheet = page.inner_text("#score")
    assert "Final score" in sheet and ("Winner" in sheet or "Shared win" in sheet)
    # a score pad: a column a player, the total at the foot
    assert page.locator("#score th[scope=col]").count() == 4
    assert page.locator("#score th[scope=row]").all_inner_texts()[-1] == "total"
    assert page.locator("#turn .last-round").count() == 0
    assert page.locator("#offer").is_hidden() and page.locator("#request").is_hidden()
    assert ERRORS[page] == []
    Path("docs").mkdir(exist_ok=True)
    if os.environ.get("TYROS_SCREENSHOTS"):
        page.screenshot(path="docs/browser-desktop.png", full_page=True)
    # Another game: the name that opened this one would open it again, so the next is offered.
    page.click("#leave")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.input_value("#table-name") == "web-2"
    assert "opens a new table, web-2," in page.inner_text("#lobby-note")
    page.click("#join button[type=submit]")
    page.wait_for_selector("#game-title:text-is('Table web-2')")
    assert page.locator("#lobby-note").is_hidden() and ERRORS[page] == []


def test_a_reload_takes_the_seat_back(server: Server, browser: Browser) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "again", 3)
    server.bots("again", 2, 3)
    page.wait_for_selector("#choices button:not([disabled])")
    before = page.inner_text("#hand")
    page.reload()
    page.wait_for_selector("#status:text('playing at table again as A')")
    page.wait_for_selector("#hand:not([hidden])")
    assert page.inner_text("#hand").startswith("Your hand:") and before
    assert ERRORS[page] == []


def test_a_spectator_follows_a_bot_game_on_a_phone(server: Server, browser: Browser) -> None:
    server.bots("bots", 2, 3)  # the table waits for its third player: watched from the start
    page = open_page(browser, server.url, 390, 844)
    page.wait_for_selector("#tables td:text('waiting (2 of 3)')")
    page.click("#tables tr:has(td:text('bots')) button:text('Watch')")
    page.wait_for_selector("#status:text('watching table bots')")
    server.bots("bots", 1, 3, name="late")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#where:text('game over')", timeout=120_000)
    assert page.locator("#log li").count() > 20
    assert page.locator("#request:not([hidden])").count() == 0  # a spectator is asked nothing
    legend = page.inner_text("#legend")  # nor told of pieces of its own
    assert "where that player acted last" in legend and "yours" not in legend
    assert "Click a space" not in legend
    page.click("#board [data-space='TY']")  # a tap is answered all the same
    expect(page.locator("#refusal")).to_be_in_viewport()
    expect(page.locator("#refusal")).to_have_text(
        re.compile("^Space TY Tyros: you are watching this table: spectators cannot act")
    )
    wide = page.evaluate("document.scrollingElement.scrollWidth")
    assert wide <= 390  # no sideways scrolling on a phone
    assert ERRORS[page] == []
    if os.environ.get("TYROS_SCREENSHOTS"):
        page.screenshot(path="docs/browser-phone.png", full_page=True)


def test_a_refused_join_is_said_in_words(server: Server, browser: Browser) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "full", 3)
    other = open_page(browser, server.url)
    other.evaluate("localStorage.clear()")
    other.fill("#name", "Pat")
    other.fill("#table-name", "full")
    other.click("#join button[type=submit]")
    refusal = other.wait_for_selector("#lobby-refusal:not([hidden])")  # beside the form
    assert refusal is not None and other.locator("#lobby").is_visible()
    words = refusal.inner_text()
    assert words.startswith("Refused: ") and ("Pat" in words or "name" in words), words


def test_an_offer_refused_is_said_in_words_and_the_table_talks(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "talk", 3)
    server.bots("talk", 2, 3)
    # Expansion first (a tile each), then Pat's card actions: the offer form shows.
    play_on(page, "#offer:not([hidden]) #offer-send:text-is('Offer')")
    # Words that are not cards are refused by the page itself, saying how to write them.
    page.fill("#give", "two oranges")
    page.fill("#get", "purple")
    page.click("#offer button[type=submit]")
    local = page.wait_for_selector("#refusal:text('\"purple\" is not a card')")
    assert local is not None and "2 orange, wild" in local.inner_text()
    assert f"({', '.join(CARD_NAMES)})" in local.inner_text()  # the catalogue's cards
    page.fill("#give", "9 wilds")  # (written as people write cards)
    page.fill("#get", "orange")
    page.click("#offer button[type=submit]")
    refusal = page.wait_for_selector("#refusal:text('Refused:')")
    assert refusal is not None
    words = refusal.inner_text()
    assert words == "Refused: you do not hold the cards you offer", words
    assert page.locator("#choices button:not([disabled])").count()
    page.fill("#say", "good luck")
    page.click("#talk button[type=submit]")
    page.wait_for_selector("#log li.chat:text('A Pat says: good luck')")
    page.wait_for_selector("#seats td:text('(bot)')")
    assert ERRORS[page] == []


def test_three_people_in_browsers_offer_and_counter(server: Server, browser: Browser) -> None:
    """Three people, each in a page: the one whose card turn comes offers a card they hold;
    another counters in their own words ("you give ... for ..."); the proposer may then
    complete with them."""
    pages = []
    for name in ("Pat", "Quin", "Rae"):
        page = open_page(browser, server.url)
        page.fill("#name", name)
        page.fill("#table-name", "three")
        page.select_option("#players", "3")
        page.click("#join button[type=submit]")
        page.wait_for_selector("#status:text('playing at table three')")
        pages.append(page)

    def proposer() -> Page | None:
        return next((p for p in pages if p.locator("#offer:not([hidden])").count()), None)

    for _ in range(200):  # the expansion, each page clicking its own first choice
        if proposer() is not None:
            break
        for page in pages:
            choices = page.locator("#choices button:visible:not([disabled])")
            if choices.count():
                with contextlib.suppress(playwright.Error):
                    choices.first.click(timeout=2_000)
        time.sleep(0.1)
    offering = proposer()
    assert offering is not None, "nobody's card turn came"

    def held(page: Page) -> list[str]:
        hand = page.inner_text("#hand")
        return [c for c, n in re.findall(r"(orange|yellow|green|violet) (\d+)", hand) if int(n)]

    card = held(offering)[0]
    offering.fill("#give", card)
    offering.fill("#get", "wild")
    offering.click("#offer button[type=submit]")
    others = [p for p in pages if p is not offering]
    title = offering.wait_for_selector(f"#request-title:text('Your offer: {card} for wild')")
    assert title is not None and "waiting for" in title.inner_text()  # (nobody answered yet)
    for page in others:
        page.wait_for_selector("#offer-what:text('Counter: you give')")
    # (one of two hands of ten cards or more holds another colour than the one offered)
    other = next(p for p in others if any(c != card for c in held(p)))
    mine = next(c for c in held(other) if c != card)
    other.fill("#give", mine)
    other.fill("#get", card)
    other.click("#offer button[type=submit]")
    countered = offering.wait_for_selector("#choices button:text('complete the trade with')")
    assert countered is not None
    assert countered.inner_text().endswith(f"their counter-offer, you give {card} for {mine}")
    assert all(ERRORS[page] == [] for page in pages)
