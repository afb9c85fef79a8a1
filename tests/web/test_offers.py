"""Offers and refusals in the page, in Chromium: while an offer waits for the player's
answer, the page says so wherever else the player clicks; a reason stays until the next
click; the offer form goes once the turn's offer fell through; its reasons are the terminal
client's; and at a table of the server's own bots, a person asked with other bots can still
answer once those have."""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tyros_client.tui import why as why_not
from tyros_protocol.views import GameView

from tests.client.tui.harness import ScriptedSeat
from tests.client.views import whole_view
from tests.web.harness import ERRORS, Server, join, needs_chromium, open_page, play_on, playwright

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = needs_chromium


LOOPS: dict[ScriptedSeat, asyncio.AbstractEventLoop] = {}
"""The event loop each seated seat plays in (where :func:`release` lets it act)."""


@contextlib.contextmanager
def seated(seat: ScriptedSeat) -> Iterator[ScriptedSeat]:
    """``seat`` plays in a thread of its own until the block ends."""
    loop = LOOPS[seat] = asyncio.new_event_loop()
    task = loop.create_task(seat.run())

    def play() -> None:
        with contextlib.suppress(BaseException):  # (cancelled, or the server went)
            loop.run_until_complete(task)
        loop.close()

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    try:
        yield seat
    finally:
        loop.call_soon_threadsafe(task.cancel)
        thread.join(10)
        del LOOPS[seat]


def release(seat: ScriptedSeat) -> None:
    """Let a seat seated with ``hold`` act from now on."""
    LOOPS[seat].call_soon_threadsafe(seat.go.set)


def test_an_offer_waiting_for_an_answer_comes_first(server: Server, browser: Browser) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "gift", 3)
    url = f"ws://127.0.0.1:{server.port}"
    with seated(ScriptedSeat(url, "gift", "Bob", gift=True)):
        page.wait_for_selector("#where:text('B Bob')")
        with seated(ScriptedSeat(url, "gift", "Cyd")):
            play_on(page, "#request-title:text('B Bob offers')")
            # A space clicked: what is asked first, not "nothing to do there".
            page.click("#board [data-space='24']")
            said = page.inner_text("#filter")
            assert "Space 24 Cyrene: answer the trade offer first: accept, decline or counter" in (
                said
            )
            assert "nothing to do" not in said
            # The answers stay on offer; one is taken.
            page.click("#choices button:text-is('accept the offer')")
            page.wait_for_selector("#log li:text('A Pat: accept')")
            assert page.locator("#refusal:text('Refused')").count() == 0
    assert ERRORS[page] == []


def test_a_reason_stays_until_the_next_click_or_your_turn(server: Server, browser: Browser) -> None:
    """Why a space clicked out of turn does nothing stays on the page while the others act
    (each update used to wipe it within a second), until another click or the player's turn."""
    page = open_page(browser, server.url)
    join(page, "Pat", "wait", 4)
    url = f"ws://127.0.0.1:{server.port}"
    others = {
        name[0]: ScriptedSeat(url, "wait", name, hold=True, players=4)
        for name in ("Bob", "Cyd", "Dee")
    }
    with contextlib.ExitStack() as stack:
        for letter, other in others.items():
            stack.enter_context(seated(other))
            if letter != "D":  # (the last one seated starts the game: no more waiting)
                page.wait_for_selector(f"#where:text('{letter} {other.name}')")
        others_turn = "#turn:not(.yours):text('is to act')"
        changed = "(before) => document.getElementById('turn').textContent !== before"
        while True:  # until a seat held acts after another (whoever the round starts with)
            play_on(page, others_turn)
            page.click("#board [data-space='24']")
            reason = page.wait_for_selector("#refusal:visible")
            assert reason is not None and reason.inner_text().startswith("Space 24 Cyrene: ")
            before = page.inner_text("#turn")
            release(others[before[0]])
            page.wait_for_function(changed, arg=before)  # (an update came)
            if not page.locator("#turn.yours").count():
                break
            page.wait_for_selector("#refusal", state="hidden")  # the player's turn
        assert page.locator("#refusal").is_visible()  # after an update: still there
        page.click("#board [data-space='21']")  # another click: its own reason
        assert page.inner_text("#refusal").startswith("Space 21 ")
        for other in others.values():
            release(other)
        page.wait_for_selector("#turn.yours")
        page.wait_for_selector("#refusal", state="hidden")
    assert ERRORS[page] == []


def test_a_space_clicked_while_expanding_says_which_tiles_can_be_played(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "grow", 3, bots=2)
    play_on(page, "#choices button:has-text('expand'):not([disabled])")
    tiles = page.inner_text("#hand").split("Your tiles: ")[1].rstrip(".").split(", ")
    elsewhere = next(str(n) for n in range(1, 33) if str(n) not in tiles)
    page.click(f"#board [data-space='{elsewhere}']")
    said = page.inner_text("#filter")
    assert f"you do not hold tile {elsewhere}; you can play: " in said, said
    assert ERRORS[page] == []


def held_cards(page: Page) -> list[str]:
    """The colours of the cards the page shows in the player's hand."""
    faces = page.locator("#hand .card:not(.none)").all_inner_texts()
    return [face.split()[0] for face in faces]


def test_the_offer_form_goes_once_the_turns_offer_fell_through(
    server: Server, browser: Browser
) -> None:
    """A refused offer says why and no longer says it was sent; once an offer is declined,
    the form goes for the rest of the turn (the rules allow one offer a turn)."""
    page = open_page(browser, server.url)
    join(page, "Pat", "one", 3)
    url = f"ws://127.0.0.1:{server.port}"
    with seated(ScriptedSeat(url, "one", "Bob")):
        page.wait_for_selector("#where:text('B Bob')")
        with seated(ScriptedSeat(url, "one", "Cyd")):
            play_on(page, "#offer:visible")
            give = held_cards(page)[0]
            wanted = next(c for c in ("orange", "yellow", "green", "violet") if c != give)
            page.fill("#give", give)
            page.fill("#get", wanted)
            for box in page.locator("#offer-to input").all():
                box.uncheck()  # asked of nobody: the server refuses it
            page.click("#offer-send")
            page.wait_for_selector("#refusal:text('Refused')")
            assert not page.inner_text("#status").startswith("sent:")
            for box in page.locator("#offer-to input").all():
                box.check()
            page.click("#offer-send")
            page.wait_for_selector("#log li:text('C Cyd: decline')")
            page.click("#choices button:has-text('withdraw'):not([disabled])")
            page.wait_for_selector("#choices button:text-is('pass'):not([disabled])")
            assert page.locator("#offer").is_hidden()
    assert ERRORS[page] == []


NAMES = ["Ann", "Bob", "Cyd", "Dee"]
CARD_TURN: dict[str, Any] = {
    "phase": "actions",
    "current": 0,
    "to_act": [0],
    "chips": {"TY": "green", "21": "yellow", "23": "green", "24": "green", "30": "green"},
    "cities": {},
    "ships": [
        {"port": "TY", "seat": 0, "count": 1},
        {"port": "29", "seat": 0, "count": 1},
        {"port": "30", "seat": 1, "count": 2},
    ],
    "hand": ["green", "green", "wild"],
}
"""Seat 0's card turn: ships in Tyros and 29, 2 green and 1 wild held; 30 full."""


def page_reasons(page: Page, calls: list[tuple[str, list[Any]]]) -> list[str | None]:
    """What the page's own explanations (why.js) say, one a call: (function, arguments);
    ``spaceWhy`` is given the board, and every function the page's names of the seats."""
    return list(
        page.evaluate(
            """async ([calls, names]) => {
                const why = await import("/why.js");
                (await import("/words.js")).setCatalogue(await (await fetch("/words.json")).json());
                const board = await (await fetch("/board.json")).json();
                const who = (s) => `${"ABCD"[s]} ${names[s]}`;
                const first = (name) => (name === "spaceWhy" ? [board] : []);
                return calls.map(([name, args]) => why[name](...first(name), ...args, who));
            }""",
            [calls, NAMES],
        )
    )


EXPAND_5 = {"kind": "expand", "tile": "5", "colour": "orange"}


def test_the_page_gives_the_terminals_reasons(server: Server, browser: Browser) -> None:
    """The page's why.js and the terminal's why.py give the same reasons on the same views
    (each a whole view: the page reads it as the frame, the terminal as the model)."""
    page = open_page(browser, server.url)
    offer = [{"kind": "answer", "accept": True}, {"kind": "answer", "accept": False}]
    card_turn = whole_view(CARD_TURN)
    someone_elses = whole_view({**CARD_TURN, "current": 2, "to_act": [2]})
    mine_in_21 = whole_view({**CARD_TURN, "ships": [{"port": "21", "seat": 0, "count": 1}]})
    beside_a_rival = {
        **mine_in_21,
        "ships": [*mine_in_21["ships"], {"port": "21", "seat": 2, "count": 1}],
    }
    held = {**mine_in_21, "hand": ["yellow"] * 3 + ["wild"]}
    model = GameView.model_validate
    cases: list[tuple[str, list[Any], str | None]] = [
        ("requestFirst", [offer], why_not.request_problem(offer)),
        (
            "requestFirst",
            [[offer[1], {"kind": "counter"}]],
            why_not.request_problem([offer[1], {"kind": "counter"}]),
        ),
        ("requestFirst", [[{"kind": "withdraw"}]], why_not.request_problem([{"kind": "withdraw"}])),
        ("requestFirst", [[{"kind": "pass"}]], None),
        ("turnWhy", [someone_elses, 0], why_not.turn_problem(model(someone_elses), 0, NAMES)),
        ("turnWhy", [card_turn, 0], None),
        *(
            (
                "spaceWhy",
                [card_turn, 0, to],
                why_not.move_problem(model(card_turn), 0, None, to, NAMES),
            )
            for to in ("23", "30", "1")
        ),
        ("spaceWhy", [held, 0, "21"], why_not.city_problem(model(held), 0, "21", NAMES)),
        *(
            ("expandWhy", [tile, tiles, legal], why_not.expand_problem(tile, tiles, legal))
            for tile, tiles, legal in (
                ("12", ["12", "5"], [EXPAND_5]),  # held, touching no empire
                ("9", ["12", "5"], [EXPAND_5]),  # not held
                ("5", ["12", "5"], [EXPAND_5]),  # playable: nothing to say
                ("12", ["12"], [{"kind": "return_tile", "tile": "12"}]),
            )
        ),
        (
            "spaceWhy",
            [beside_a_rival, 0, "21"],
            why_not.city_problem(model(beside_a_rival), 0, "21", NAMES),
        ),
    ]
    said = page_reasons(page, [(name, args) for name, args, _ in cases])
    assert said == [expected for _, _, expected in cases]
    assert "23 is 4 steps away: it costs 4 green" in str(said[6])
    assert "no empire touches 12; you can play: 5" in said
    # an offer the hand cannot accept: the cards it lacks, as the engine says them
    accepts = page_reasons(
        page,
        [
            ("acceptWhy", [["violet", "wild"], ["violet", "violet", "green"]]),
            ("acceptWhy", [["violet", "violet"], ["violet"]]),
        ],
    )
    assert accepts == ["you cannot accept: you hold 1 violet, not 2; you hold 0 green, not 1", None]
    assert ERRORS[page] == []


OFFER_TO_ME = re.compile(r"^([BCD] [^:]+): offer .* to (.*A Pat.*)$")
ANSWERED = """([offer, asked]) => {
    const lines = [...document.querySelectorAll("#log li")].map((li) => li.textContent.trim());
    const since = lines.slice(lines.lastIndexOf(offer));
    return asked.every((who) => since.some((line) => /^(accept|decline|counter)/.test(
        line.startsWith(`${who}: `) ? line.slice(who.length + 2) : "")));
}"""
"""Whether each of ``asked`` has answered the offer logged as ``offer`` (in the page)."""

DECLINED = """([before]) => [...document.querySelectorAll("#log li")]
    .filter((li) => li.textContent.trim() === "A Pat: decline the offer").length > before"""
"""Whether the log holds more of the person's declines than ``before``."""


def log_lines(page: Page) -> list[str]:
    return [line.strip() for line in page.locator("#log li").all_inner_texts()]


def decline(page: Page) -> None:
    """Decline the offer shown (if it is still there), once the page hears of it."""
    before = log_lines(page).count("A Pat: decline the offer")
    with contextlib.suppress(playwright.Error):  # (withdrawn meanwhile)
        page.click("#choices button:text-is('decline the offer'):not([disabled])", timeout=2_000)
        page.wait_for_function(DECLINED, arg=[before])


def test_a_person_answers_a_house_bots_offer_after_the_other_bots_answered(
    tmp_path: Path, browser: Browser
) -> None:
    """At a table of the server's own bots, an offer made to the person and to bots: the
    bots answer at once; the person answers after them, still in time, and the server takes
    the answer (the proposer waits for it, up to the table's time to answer)."""
    server = Server(tmp_path, ["--bot-pace", "0.2"])
    try:
        page = open_page(browser, server.url)
        page.click("#new-table summary")
        page.fill("#trade-seconds", "120")
        join(page, "Pat", "house", 4, bots=3)
        for _ in range(100):  # offers to the person alone are declined on the way
            play_on(page, "#choices button:text-is('decline the offer'):not([disabled])", most=3000)
            offers = [m for m in map(OFFER_TO_ME.match, log_lines(page)) if m]
            asked = [who for who in offers[-1].group(2).split(", ") if who != "A Pat"]
            if asked:
                break
            decline(page)
        else:
            raise AssertionError("no bot offered a trade to the person and to other bots")
        offer = offers[-1].group(0)
        page.wait_for_function(ANSWERED, arg=[offer, asked])
        # Every bot asked has answered: the person's answer still counts.
        assert page.locator("#request-title:text('offers')").count()
        before = log_lines(page).count("A Pat: decline the offer")
        page.click("#choices button:text-is('decline the offer'):not([disabled])")
        page.wait_for_function(DECLINED, arg=[before])
        assert page.locator("#refusal:text('Refused')").count() == 0, page.inner_text("#refusal")
        assert ERRORS[page] == []
    finally:
        server.stop()
