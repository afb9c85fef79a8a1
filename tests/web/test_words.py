"""The page speaks the terminal's words: a whole game's log, rendered from the protocol's
catalogue by the page's words.js in Chromium, reads line for line as the terminal client's."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from tyros_client.words import describe_action, describe_event
from tyros_rules import Options, event_view, legal_actions, new_game, push, seats_to_act

from tests.web.harness import Server, open_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

NAMES = ["Ann", "Bob", None, "Dee"]


def a_whole_game(seed: int, players: int) -> list[dict[str, Any]]:
    state = new_game(Options(players=players, seed=seed))
    rng = random.Random(seed)
    while seats_to_act(state):
        seat = seats_to_act(state)[0]
        push(state, seat, rng.choice(legal_actions(state, seat)))
    assert state.log is not None
    return state.log


def page_lines(page: Page, events: list[dict[str, Any]], viewer: int | None) -> list[Any]:
    return list(
        page.evaluate(
            """async ([events, names, viewer]) => {
                const words = await import("/words.js");
                words.setCatalogue(await (await fetch("/words.json")).json());
                return events.map((event) => words.describeEvent(event, names, viewer));
            }""",
            [events, NAMES, viewer],
        )
    )


def test_a_whole_games_log_reads_the_same_in_the_page_and_the_terminal(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    log = a_whole_game(seed=4, players=4)
    for viewer in (0, 2, None):
        seen = [e for event in log if (e := event_view(event, viewer, 0)) is not None]
        for at, event in enumerate(seen):  # the server's marks of who decided
            if event["type"] == "action" and at % 7 == 0:
                event["by"] = "takeover" if at % 2 else "clock"
        expected = [describe_event(event, NAMES, viewer) for event in seen]
        assert len({event["type"] for event in seen}) >= 12
        assert page_lines(page, seen, viewer) == expected


def test_the_page_says_every_action_kind_as_the_terminal_does(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    actions: list[dict[str, Any]] = [
        {"kind": "give_card"},
        {"kind": "give_card", "card": "orange", "to": 1},
        {"kind": "city", "space": "16", "pay": ["green"], "ship": "16W"},
        {"kind": "keep"},
        {"kind": "keep", "cards": ["wild", "green", "green"]},
        {"kind": "return_tile"},
        {"kind": "counter", "give": ["orange"], "get": ["green", "green"]},
        {"kind": "propose", "to": [1, 3], "give": ["orange"], "get": ["violet"]},
        {"kind": "bank_draw", "pay": ["orange", "orange"]},
        {"kind": "answer", "accept": True},
    ]
    said = page.evaluate(
        """async ([actions, names]) => {
            const words = await import("/words.js");
            words.setCatalogue(await (await fetch("/words.json")).json());
            return actions.map((action) => words.describeAction(action, names));
        }""",
        [actions, NAMES],
    )
    assert said == [describe_action(action, NAMES) for action in actions]
    unknown = page.evaluate(
        """async () => (await import("/words.js")).describeEvent({type: "new", seat: 0}, [], 0)"""
    )
    assert unknown is None and describe_event({"type": "new", "seat": 0}, [], 0) is None
