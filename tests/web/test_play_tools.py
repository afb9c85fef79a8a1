"""The page's tools for a player, in a real browser: a new table's settings, a hint from the
server's bot, the payment chooser, and the replay of a finished game."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import expect
from tyros_protocol.messages import BOT_LEVELS
from tyros_protocol.options import (
    MAX_DECISION,
    MAX_RESERVE,
    MAX_TRADE_SECONDS,
    MIN_DECISION,
    MIN_RESERVE,
    MIN_TRADE_SECONDS,
)
from tyros_protocol.words import LEVEL_WORDS

from tests.web.harness import ERRORS, Server, join, needs_chromium, open_page, play_on

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = needs_chromium


def test_a_new_tables_settings_show_in_the_list_and_at_the_table(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    page.click("#new-table summary")
    for box, least, most in (
        ("#clock-decision", MIN_DECISION, MAX_DECISION),
        ("#clock-reserve", MIN_RESERVE, MAX_RESERVE),
        ("#trade-seconds", MIN_TRADE_SECONDS, MAX_TRADE_SECONDS),
    ):  # the protocol's bounds, from the catalogue
        expect(page.locator(box)).to_have_attribute("min", str(least))
        expect(page.locator(box)).to_have_attribute("max", str(most))
    page.fill("#clock-decision", "30")
    page.fill("#clock-reserve", "90")
    page.uncheck("#hints")
    join(page, "Pat", "timed", 3)
    other = open_page(browser, server.url)
    row = other.wait_for_selector("#tables tr:has(td:text('timed'))")
    assert row is not None
    assert "3 players, first setup, clock 30+90 s, no hints" in row.inner_text()
    server.bots("timed", 2, 3)
    page.wait_for_selector("#clock-head:not([hidden])")
    clocks = page.locator("#seats tbody td:nth-child(6)").all_inner_texts()
    assert len(clocks) == 3 and all(re.fullmatch(r"(reserve 1:30|\d:\d\d left)", c) for c in clocks)
    page.wait_for_selector("#choices button:not([disabled])")
    assert page.locator("#hint").is_hidden()  # a table without hints shows none
    assert ERRORS[page] == [] and ERRORS[other] == []


def test_the_servers_bots_are_made_at_the_level_chosen(server: Server, browser: Browser) -> None:
    page = open_page(browser, server.url)
    options = page.locator("#bot-level option")
    expect(options).to_have_count(len(BOT_LEVELS))
    assert options.evaluate_all("all => all.map((o) => o.value)") == list(BOT_LEVELS)
    assert options.all_inner_texts() == [f"{lv}: {LEVEL_WORDS[lv]}" for lv in BOT_LEVELS]
    expect(page.locator("#bot-level")).to_have_value("normal")  # the server's default
    assert page.locator("#bot-level").is_disabled()  # no bots, no level
    page.select_option("#bots", "2")
    expect(page.locator("#bot-level")).to_be_enabled()
    page.select_option("#bots", "0")
    expect(page.locator("#bot-level")).to_be_disabled()
    join(page, "Pat", "gentle", 3, bots=2, level="easy")
    other = open_page(browser, server.url)
    row = other.wait_for_selector("#tables tr:has(td:text('gentle'))")
    assert row is not None and "3 players, first setup, 2 easy bots" in row.inner_text()
    assert ERRORS[page] == [] and ERRORS[other] == []


def test_the_page_offers_the_servers_own_level_first_until_another_is_chosen(
    tmp_path: Path, browser: Browser
) -> None:
    """A server started with ``--bot-level hard`` makes hard bots at a table created without
    a level: its page offers hard first, and keeps a level chosen as the list refreshes."""
    server = Server(tmp_path, ["--bot-level", "hard"])
    try:
        page = open_page(browser, server.url)
        expect(page.locator("#bot-level")).to_have_value("hard")
        page.select_option("#bots", "2")
        page.select_option("#bot-level", "expert")
        other = open_page(browser, server.url)
        expect(other.locator("#bot-level")).to_have_value("hard")
        join(other, "Sam", "later", 3)  # a table the first page's list shows on a refresh
        page.wait_for_selector("#tables tr:has(td:text('later'))")
        expect(page.locator("#bot-level")).to_have_value("expert")  # kept through it
        join(page, "Pat", "strong", 3, bots=2, level="expert")
        third = open_page(browser, server.url)
        row = third.wait_for_selector("#tables tr:has(td:text('strong'))")
        assert row is not None and "2 expert bots" in row.inner_text()
        assert ERRORS[page] == [] and ERRORS[other] == [] and ERRORS[third] == []
    finally:
        server.stop()


def test_a_hint_is_the_servers_bot_choice_marked_among_the_choices(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "hinted", 3)
    server.bots("hinted", 2, 3)
    page.wait_for_selector("#hint:not([hidden]):not([disabled])")
    page.click("#hint")
    advice = page.wait_for_selector("#advice:not([hidden])")
    assert advice is not None and advice.inner_text().startswith("Hint: ")
    words = advice.inner_text().removeprefix("Hint: ").removesuffix(" (written in the form below)")
    marked = page.locator("#choices .advised")
    assert marked.count() == 1
    assert page.locator("#hint").is_disabled()  # one hint a decision
    points = page.locator("#seats tbody td:nth-child(2)").all_inner_texts()
    assert len(points) == 3 and all(p.isdigit() for p in points)  # if the game ended now
    if marked.evaluate("node => node.tagName") == "BUTTON":
        assert marked.inner_text() == words
        marked.click()
    else:  # a payment chooser: the advised payment is the one chosen
        paid = marked.locator("option:checked").inner_text().removeprefix("pay ")
        assert paid in words
        marked.locator("button").click()
    page.wait_for_selector(f"#log li:text('A Pat: {words}')")
    assert ERRORS[page] == []


def test_the_payment_chooser_pays_as_chosen(server: Server, browser: Browser) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "paying", 3)
    server.bots("paying", 2, 3)
    play_on(page, "#choices .payment:visible")
    chooser = page.locator("#choices .payment:visible").first
    options = chooser.locator("option").all_inner_texts()
    assert len(options) > 1 and all(o.startswith("pay ") for o in options)
    paid = options[-1].removeprefix("pay ")  # the log says the cards paid as the chooser does
    lines = page.locator(f"#log li:text('A Pat: '):has-text('{paid}')")
    before = lines.count()
    chooser.locator("select").select_option(index=len(options) - 1)
    chooser.locator("button").click()
    expect(lines).to_have_count(before + 1)
    assert ERRORS[page] == []


def test_a_finished_game_is_replayed_decision_by_decision(server: Server, browser: Browser) -> None:
    server.bots("done", 3, 3)  # three bots play a whole game
    page = open_page(browser, server.url)
    row = "#tables tr:has(td:text('done')):has(td:text('finished'))"
    page.wait_for_selector(row, timeout=180_000)
    page.click(f"{row} button:text('Replay')")
    where = page.wait_for_selector("#replay-where:text('decision')")
    assert where is not None
    last = int(where.inner_text().split()[-1])
    assert where.inner_text() == f"decision 0 of {last}" and last > 50  # from the first deal
    assert page.locator("#score").is_hidden()
    assert page.inner_text("#where").startswith("Round 1")
    first_log = page.locator("#log li").count()
    page.click("#replay-last")
    page.wait_for_selector(f"#replay-where:text('decision {last} of {last}')")
    assert page.locator("#score").is_visible() and page.locator("#request").is_hidden()
    assert page.locator("#log li").count() > first_log
    page.click("#replay-back")
    page.wait_for_selector(f"#replay-where:text('decision {last - 1} of {last}')")
    page.click("#replay-first")
    page.wait_for_selector(f"#replay-where:text('decision 0 of {last}')")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"#replay-where:text('decision 1 of {last}')")
    page.locator("#replay-step").fill(str(last // 2))  # the middle of the game: points so far
    page.wait_for_selector(f"#replay-where:text('decision {last // 2} of {last}')")
    running = page.locator("#seats tbody tr td:nth-child(2)").all_inner_texts()
    assert len(running) == 3 and all(text.isdigit() for text in running), running
    assert any(int(text) > 0 for text in running)
    page.click("#leave")
    page.wait_for_selector("#lobby:not([hidden])")
    assert ERRORS[page] == []


def test_the_board_is_one_tab_stop_walked_with_the_arrow_keys(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "keys", 3)
    server.bots("keys", 2, 3)
    page.wait_for_selector("#choices button:visible:not([disabled])")
    assert page.locator("#board [tabindex='0']").count() == 1  # one stop for the board
    page.focus("#board [data-space='1']")
    page.keyboard.press("ArrowRight")  # space 6 is right of space 1 on the board
    focused = page.evaluate("document.activeElement.dataset.space")
    assert focused == "6", focused
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.startswith("space 6 Massalia, ") and "empire" in label
    page.keyboard.press("Enter")
    page.wait_for_selector("#filter:text('Space 6 Massalia')")
    assert page.evaluate("document.activeElement.dataset.space") == "6"  # focus stays
    page.click("#filter button:text('Show everything')")
    page.wait_for_selector("#filter", state="hidden")
    assert ERRORS[page] == []


def test_nothing_but_a_browser_plays_a_whole_game_against_the_servers_bots(
    tmp_path: Path, browser: Browser
) -> None:
    """No terminal: the page creates a table whose other seats the server's own bots take."""
    server = Server(tmp_path, extra=["--bot-pace", "0"])  # (a person's pace is 1 s a decision)
    try:
        page = open_page(browser, server.url)
        join(page, "Pat", "alone", 3, bots=2)
        page.wait_for_selector("#board svg")
        assert page.locator("#seats td:text('(bot)')").count() == 2
        play_on(page, "#score:not([hidden])")
        assert "Final score" in page.inner_text("#score")
        assert ERRORS[page] == []
    finally:
        server.stop()


def test_a_table_left_leaves_nothing_behind_at_the_next(server: Server, browser: Browser) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "first", 3, bots=2)
    page.wait_for_selector("#choices button:visible:not([disabled])")
    page.click("#leave")
    page.wait_for_selector("#lobby:not([hidden])")
    join(page, "Pat", "second", 3)
    page.wait_for_selector("#where:text('Waiting for 2 more players')")
    assert page.locator("#board svg").count() == 0
    assert page.locator("#choices button").count() == 0 and page.locator("#request").is_hidden()
    assert page.locator("#seats tbody tr").count() == 0
    assert ERRORS[page] == []


FOLDED_TITLES = """async () => {
  const { renderChoices } = await import("/choices.js");
  const pay = ["orange"];
  const cards = ["orange", "yellow", "green", "violet", "wild"];
  const legal = [{ kind: "pass" },
    ...cards.map((take) => ({ kind: "bank_pick", pay, take })),
    ...["1", "2", "3", "4", "6"].map((to) => ({ kind: "move", from: "TY", to, pay }))];
  const holder = document.createElement("div");
  renderChoices(holder, legal, { describe: (a) => JSON.stringify(a), advice: null, disabled: false,
                                 act: () => {} });
  return [...holder.querySelectorAll("summary")].map((s) => s.textContent);
}"""


def test_a_folded_list_says_a_space_shows_its_choices_only_where_they_have_one(
    server: Server, browser: Browser
) -> None:
    """On a phone five choices of a kind fold away: moves point to a click on a space; a
    pick from the bank's discards, which no space shows, does not."""
    page = open_page(browser, server.url, width=390, height=844)
    assert page.evaluate(FOLDED_TITLES) == [
        "bank: pick a card (5): show them all",
        "move (5): show them all, or click a space",
    ]
    assert ERRORS[page] == []


def test_a_space_is_named_by_moves_ships_cities_and_tiles_never_by_an_offers_seats(
    server: Server, browser: Browser
) -> None:
    """What a click on a space shows, what a folded list points to and which spaces a seat's
    last action framed all read one list: an offer to seat 1 names no space 1."""
    page = open_page(browser, server.url)
    script = """async (actions) => {
      const { actionSpaces } = await import("/board.js");
      return actions.map(actionSpaces);
    }"""
    actions = [
        {"kind": "propose", "to": [1, 2], "give": ["orange"], "get": ["green"]},
        {"kind": "move", "from": "16W", "to": "1", "pay": ["orange"]},
        {"kind": "city", "space": "7", "pay": []},
        {"kind": "expand", "tile": "2", "colour": "green"},
        {"kind": "pass"},
    ]
    assert page.evaluate(script, actions) == [[], ["16", "1"], ["7"], ["2"], []]
    assert ERRORS[page] == []
