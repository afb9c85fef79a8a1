"""The client's state, its token store and its words for events and the score sheet."""

from __future__ import annotations

import random
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from prompt_toolkit.formatted_text import fragment_list_to_text
from tyros_client.paths import data_dir
from tyros_client.tokens import TokenStore
from tyros_client.tui.state import AWAY_GRACE, LineKind
from tyros_client.tui.text import score_sheet
from tyros_client.words import cards_text, describe_action, describe_event
from tyros_protocol.messages import Prompt, SeatClock, SeatStatus, TableInfo, TableUpdate, Welcome
from tyros_protocol.views import ScoreSheet
from tyros_rules import (
    GameState,
    Options,
    Phase,
    event_view,
    events_seen,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)

from tests.client.frames import a_view, an_update
from tests.client.tui.feeding import PASS, FedState

NAMES = ["Ann", "Bob", "Cyd"]


def finished_game(seed: int = 4) -> Any:
    state = new_game(Options(players=3, seed=seed))
    rng = random.Random(seed)
    while state.phase != Phase.OVER:
        seat = seats_to_act(state)[0]
        push(state, seat, rng.choice(legal_actions(state, seat)))
    return state


def welcome(seat: int | None = 0, token: str | None = None) -> dict[str, Any]:
    """The server's ``welcome``, built from the protocol's model."""
    message = Welcome(re=1, protocol=1, table="t", seat=seat, name="Ann", token=token)
    return message.model_dump(mode="json")


def table(names: Sequence[str | None], players: Literal[3, 4] = 3) -> dict[str, Any]:
    """The server's ``table`` message, built from the protocol's models (absent fields
    left out, as the server does)."""
    seats = [SeatStatus(seat=i, name=n, connected=n is not None) for i, n in enumerate(names)]
    info = TableInfo(
        name="t", players=players, setup="first", seats=seats, started=True, finished=False
    )
    return TableUpdate(type="table", table=info).model_dump(mode="json", exclude_unset=True)


def phase_of(game: GameState) -> Phase:
    """The phase, read through a call (so that type checkers do not keep an old narrowing)."""
    return game.phase


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_welcome_table_update_and_prompt() -> None:
    game = new_game(Options(players=3, seed=2))
    clock = Clock()
    state = FedState("ws://x:1", "t", "Ann", clock=clock)
    state.welcomed(token="tok")
    state.feed(table(NAMES))
    assert state.names == NAMES
    assert state.seat_status(1).name == "Bob"
    events = [seen for _, seen in events_seen(game.log or [], 0)]
    seat = seats_to_act(game)[0]
    prompt = {"version": game.version, "deadline": 30.0, "legal": [{"kind": "pass"}]}
    state.feed(
        {
            "type": "update",
            "version": game.version,
            "events": events,
            "view": view(game, 0),
            "prompt": prompt if seat == 0 else None,
        }
    )
    assert state.view is not None and state.view["viewer"] == 0
    texts = [line.text for line in state.log]
    assert texts[0] == "joined table t as player A"
    assert any(t.startswith("=== round 1") for t in texts)
    assert any("A Ann is dealt 4 tiles: " in t for t in texts)  # our own tiles are named
    assert any(t == "B Bob is dealt 4 tiles" for t in texts)  # the others' are counted
    state.prompt = Prompt.model_validate(prompt)
    state.prompt_at = clock.now
    clock.now += 12.5
    assert state.seconds_left() == 17.5
    clock.now += 100
    assert state.seconds_left() == 0.0
    assert state.legal == [{"kind": "pass"}]
    # At a table with a clock, the seat's clock running out first is the deadline: the
    # server answers for the seat then (the request said "57 s left" beside "0:17").
    state.clocks = [SeatClock(seat=0, reserve=7.0, left=17.0)]
    state.prompt_at = clock.now
    clock.now += 2
    assert state.seconds_left() == 15.0 == state.clock_left(0)
    state.clocks = [SeatClock(seat=0, reserve=60.0, left=90.0)]
    assert state.seconds_left() == 28.0  # the answer time runs out first


def test_a_resync_rebuilds_the_event_log_but_keeps_notes() -> None:
    state = FedState("ws://x:1", "t", "Ann")
    state.feed(table(NAMES))
    round_start = {"type": "round_start", "version": 2, "round": 1, "starting_seat": 1}
    update = an_update(3, events=[round_start])
    state.feed(update)
    state.feed(an_update(4, events=[{"type": "round_end", "version": 4, "round": 1}]))
    state.note("connection lost; reconnecting")
    assert [line.text for line in state.log] == [
        "=== round 1, B Bob starts ===",
        "round 1 ends",
        "connection lost; reconnecting",
    ]
    state.welcomed(token=None)
    state.feed(update)
    assert [line.text for line in state.log] == [
        "connection lost; reconnecting",
        "joined table t as player A",
        "=== round 1, B Bob starts ===",
    ]


def test_a_resync_with_versioned_events_keeps_the_log_and_adds_only_what_was_missed() -> None:
    """Events carry the version they belong to: after a reconnect the replayed ones already
    in the log are skipped (the log keeps everything from before), the missed ones added."""
    state = FedState("ws://x:1", "t", "Ann")
    state.feed(table(NAMES))
    state.feed(welcome())
    start = {"type": "round_start", "version": 0, "round": 1, "starting_seat": 1}
    passed = {"type": "action", "version": 1, "seat": 1, "action": {"kind": "pass"}}
    ended = {"type": "round_end", "version": 2, "round": 1}
    view = a_view()
    state.feed({"type": "update", "version": 0, "events": [start], "view": view})
    state.feed({"type": "update", "version": 1, "events": [passed], "view": view})
    before = [line.text for line in state.log]
    state.note("connection lost; reconnecting")
    state.feed(welcome())
    state.feed({"type": "update", "version": 2, "events": [start, passed, ended], "view": view})
    texts = [line.text for line in state.log]
    assert texts[: len(before)] == before  # nothing from before the reconnect is lost
    assert texts[len(before) :] == [
        "connection lost; reconnecting",
        "joined table t as player A",
        "round 1 ends",  # the one event missed meanwhile, once
    ]
    # The same resync again adds nothing; another seat's welcome starts afresh.
    state.feed({"type": "update", "version": 2, "events": [start, passed, ended], "view": view})
    assert [line.text for line in state.log] == texts
    state.feed(welcome(seat=1))
    state.feed({"type": "update", "version": 2, "events": [start, passed, ended], "view": view})
    assert sum(line.text == "round 1 ends" for line in state.log) == 1
    assert state.log[-1].text == "round 1 ends" and state.session.seen_version == 2


def test_errors_and_acceptances() -> None:
    state = FedState("ws://x:1", "t", "Ann")
    state.feed({"type": "error", "re": 4, "code": "stale_version", "message": "old"})
    moved_on = "the game moved on before your action arrived: look again"
    assert state.error is not None and state.error.text == moved_on
    assert state.log[-1].text == f"server: {moved_on}"
    state.feed({"type": "accepted", "re": 5, "version": 9})
    assert (state.accepted, state.accepted_version) == (1, 9)


def test_every_event_of_a_game_has_words() -> None:
    types = set()
    for seed in range(4, 8):
        for event in finished_game(seed).log or []:
            for viewer in (0, 1, None):
                seen = event_view(event, viewer)
                if seen is not None:
                    types.add(seen["type"])
                    assert describe_event(seen, NAMES, viewer), seen
    assert {"round_start", "action", "game_end", "trade_completed", "tile_drawn"} <= types


def test_private_parts_only_for_their_seat() -> None:
    dealt = {"type": "cards_dealt", "seat": 1, "count": 2, "cards": ["green", "wild"]}
    assert describe_event(dealt, NAMES, 1) == "B Bob is dealt 2 cards: green, wild"
    counted = {k: v for k, v in dealt.items() if k != "cards"}
    assert describe_event(counted, NAMES, 0) == "B Bob is dealt 2 cards"
    gift = {"type": "action", "seat": 0, "to": 2, "action": {"kind": "give_card", "to": 2}}
    assert describe_event(gift, NAMES, 1) == "A Ann: give a card to C Cyd"
    gift["action"] = {"kind": "give_card", "to": 2, "card": "violet"}
    assert describe_event(gift, NAMES, 0) == "A Ann: give a violet to C Cyd"


def test_action_words() -> None:
    assert describe_action(
        {"kind": "city", "space": "16", "ship": "16E", "pay": ["orange"] * 4}
    ) == ("build a city in 16 paying orange x4 (the ship on 16E goes home)")
    assert describe_action(
        {"kind": "bank_pick", "take": "violet", "pay": ["orange", "orange", "wild"]}
    ) == ("discard orange x2, wild, take violet from the discards")
    assert (
        describe_action({"kind": "propose", "to": [1, 2], "give": ["green"], "get": []}, NAMES)
        == "offer green for nothing to B Bob, C Cyd"
    )
    assert cards_text([]) == "nothing"


def test_the_score_sheet() -> None:
    score = finished_game().score
    sheet = ScoreSheet.model_validate(score)
    text = fragment_list_to_text(score_sheet(sheet, NAMES, width=100))
    lines = text.splitlines()
    assert lines[0].split() == ["Empires", "size", "rank", "a", "city", "a", "ship"]
    header = next(line for line in lines if line.startswith("player"))
    assert header.split() == [
        "player",
        "total",  # second: a narrow screen cuts the columns at the right
        "orange",
        "yellow",
        "green",
        "violet",
        "majority",
        "all",
        "4",
        "tie-break",
    ]
    for column in ("majority (or maj):", "all 4 (or all4):", "tie-break (or tie):", "(c)", "(s)"):
        assert column in text  # every column is explained under the sheet
    # In 80 columns every column still shows (the tie-break decides a tied total), under
    # shorter names that the legend gives too.
    narrow = fragment_list_to_text(score_sheet(sheet, NAMES)).splitlines()
    assert all(len(line) <= 78 for line in narrow)
    head = next(line for line in narrow if line.startswith("player")).split()
    assert head[-3:] == ["maj", "all4", "tie"] and head[1] == "total"
    for player in score["players"]:
        row = next(line for line in lines if line.startswith(f"{'ABC'[player['seat']]} "))
        assert row.split()[2] == str(player["total"])  # after the letter and the name
        for empire in player["empires"]:
            assert f"{empire['cities']}c {empire['ship_spaces']}s" in row
    winners = [f"{'ABC'[s]} {NAMES[s]}" for s in score["winners"]]
    verdict = next(line for line in lines if line.startswith(("Winner", "Shared win")))
    assert verdict in (f"Winner: {winners[0]}", f"Shared win: {' and '.join(winners)}")


def test_token_store(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "tokens.json"
    tokens = TokenStore(path)
    assert tokens.load("k") is None
    tokens.save("k", "secret", 2)
    tokens.save("other", "x", None)
    assert TokenStore(path).load("k") == "secret"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    tokens.forget("k")
    assert tokens.load("k") is None and tokens.load("other") == "x"
    path.write_text("not json")
    assert tokens.load("other") is None


def test_data_dir_follows_xdg(monkeypatch: Any, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_dir() == tmp_path / "tyros"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_dir() == tmp_path / "home" / ".local" / "share" / "tyros"


def test_every_error_code_has_words_and_no_code_reaches_the_screen() -> None:
    from tyros_client.words import ERROR_WORDS
    from tyros_protocol.errors import ErrorCode

    assert set(ERROR_WORDS) == {code.value for code in ErrorCode}
    for code in ErrorCode:
        state = FedState("ws://x:1", "t", "Ann")
        state.feed(
            {
                "type": "error",
                "re": 1,
                "code": code.value,
                "message": "action.action: Input tag 'bogus_kind' found using 'kind'",
            }
        )
        assert state.error is not None and state.error.text == ERROR_WORDS[code.value]
        assert "_" not in state.error.text and "Input tag" not in state.log[-1].text


def test_a_refused_action_shows_the_engines_reason() -> None:
    """The engine's reasons are written for players: the screen shows them (the protocol's
    own words, with an underscore, never reach it)."""

    state = FedState("ws://x:1", "t", "Ann")
    reason = "those are the offer's own terms: accept it"
    state.feed({"type": "error", "re": 1, "code": "illegal_action", "message": reason})
    assert state.error is not None
    assert state.error.text == "the server refused that: " + reason
    assert state.log[-1].text == state.error.text
    state.feed({"type": "error", "re": 2, "code": "illegal_action", "message": "no bank_draw now"})
    assert state.error.text == "the server refused that action: it is not allowed now"


def test_the_log_sums_up_the_others_since_your_last_turn() -> None:

    state = FedState("ws://x:1", "t", "Ann")
    state.welcomed()

    def update(version: int, current: int, events: list[dict[str, object]], mine: bool) -> None:
        state.feed(
            {
                "type": "update",
                "version": version,
                "events": events,
                "view": a_view(phase="actions", current=current, to_act=[current]),
                "prompt": {"version": version, "legal": [{"kind": "pass"}]} if mine else None,
            }
        )

    def passed(seat: int, version: int) -> dict[str, object]:
        return {"type": "action", "version": version, "seat": seat, "action": {"kind": "pass"}}

    update(0, 2, [], False)
    update(1, 0, [passed(2, 1)], True)
    # A seat's very first turn has no "last turn" to sum up since.
    assert not [line for line in state.log if line.text.startswith("since your")]
    update(2, 1, [passed(0, 2)], False)
    update(3, 2, [passed(1, 3)], False)
    drew = {"kind": "bank_draw", "pay": ["green"]}
    update(4, 0, [{"type": "action", "version": 4, "seat": 2, "action": drew}], True)
    summary = [line.text for line in state.log if line.kind is LineKind.SUMMARY]
    assert summary == [
        "since your last turn:",
        "  B player B: pass",
        "  C player C: discard green, draw 1",
    ]
    # The clock ran out on this seat's next turn: the server's decision in its name comes
    # first in the summary at its following turn.
    clocked = {**passed(0, 5), "by": "clock"}
    update(5, 1, [clocked], False)
    update(6, 0, [passed(1, 6)], True)
    summary = [line.text for line in state.log if line.kind is LineKind.SUMMARY]
    assert summary[-3:] == ["since your last turn:", "  done for you: pass", "  B player B: pass"]
    # Answering an offer between two turns is not a turn: the summary still covers what
    # the others did before it.
    update(7, 1, [passed(0, 7)], False)
    update(8, 2, [{"type": "action", "version": 8, "seat": 1, "action": drew}], False)
    declined = {"kind": "answer", "accept": False}
    update(9, 2, [{"type": "action", "version": 9, "seat": 0, "action": declined}], False)
    update(10, 0, [passed(2, 10)], True)
    summary = [line.text for line in state.log if line.kind is LineKind.SUMMARY]
    assert summary[-3:] == [
        "since your last turn:",
        "  B player B: discard green, draw 1",
        "  C player C: pass",
    ]


def test_only_moves_the_client_sent_are_summed_up_as_done_for_you() -> None:
    state = FedState("ws://x:1", "t", "Ann")
    state.welcomed()

    def update(version: int, current: int, acted: dict[str, object] | None = None) -> None:
        events = [] if acted is None else [{"type": "action", "version": version, **acted}]
        state.feed(
            {
                "type": "update",
                "version": version,
                "events": events,
                "view": a_view(phase="actions", current=current, to_act=[current]),
                "prompt": {"version": version, "legal": [PASS]} if current == 0 else None,
            }
        )

    def summary() -> list[str]:
        """The last summary's lines."""
        lines = [line.text for line in state.log if line.kind is LineKind.SUMMARY]
        return lines[len(lines) - 1 - lines[::-1].index("since your last turn:") :]

    update(1, 1)
    update(2, 2, {"seat": 1, "action": PASS})
    update(3, 0, {"seat": 2, "action": PASS})
    update(4, 1, {"seat": 0, "action": PASS})  # the player's own turn
    update(5, 0, {"seat": 1, "action": PASS})
    state.sent_for_you(PASS)  # (its only possible move)
    update(6, 1, {"seat": 0, "action": PASS})
    update(7, 0, {"seat": 1, "action": PASS})
    assert summary() == ["since your last turn:", "  done for you: pass", "  B player B: pass"]
    # One that never went (refused): the seat's next action is the player's own.
    state.sent_for_you(PASS)
    update(8, 1, {"seat": 0, "action": {"kind": "bank_draw", "pay": ["green"]}})
    update(9, 0, {"seat": 1, "action": PASS})
    assert summary() == ["since your last turn:", "  B player B: pass"]
    # One the server made first (the clock ran out): the player's next pass is their own.
    state.sent_for_you(PASS)
    update(10, 1, {"seat": 0, "action": PASS, "by": "clock"})
    update(11, 0, {"seat": 1, "action": PASS})
    update(12, 1, {"seat": 0, "action": PASS})  # the player's own, on their next turn
    update(13, 0, {"seat": 1, "action": PASS})
    assert summary() == ["since your last turn:", "  B player B: pass"]


def test_table_talk_is_logged_once_with_who_said_it() -> None:
    state = FedState("ws://x:1", "t", "Ann")
    state.feed(table(NAMES))
    line = {
        "type": "chat",
        "seq": 1,
        "version": 0,
        "seat": 1,
        "name": "Bob",
        "audience": "table",
        "text": "two green for your violet?",
    }
    aside = {**line, "seq": 2, "seat": None, "name": "Zed", "audience": "spectators"}
    aside["text"] = "Bob should not"
    for message in (line, aside, line, aside):  # a resync repeats the recent talk
        state.feed(message)
    talk = [entry for entry in state.log if entry.kind is LineKind.CHAT]
    assert [entry.text for entry in talk] == [
        "B Bob says: two green for your violet?",
        "(spectator) Zed says: Bob should not",
    ]


def test_talk_heard_late_goes_where_it_was_said() -> None:
    """After a reconnection the server resends the recent talk after the events: each line
    of it goes back between the events it was said between."""
    state = FedState("ws://x:1", "t", "Ann")
    state.feed(table(NAMES))
    events = [
        {"type": "action", "seat": seat % 3, "version": seat, "action": {"kind": "pass"}}
        for seat in range(1, 5)
    ]
    state.feed(
        {
            "type": "update",
            "version": 4,
            "events": events,
            "view": a_view(phase="actions", current=0, to_act=[0]),
            "prompt": None,
        }
    )
    said = {"type": "chat", "seat": 1, "name": "Bob", "audience": "table"}
    state.feed({**said, "seq": 1, "version": 2, "text": "early"})
    state.feed({**said, "seq": 2, "version": 4, "text": "now"})
    lines = [line.text for line in state.log if line.version >= 0]
    assert lines == [  # versions 1 to 4: B, C, A and B passed
        "B Bob: pass",
        "C Cyd: pass",
        "B Bob says: early",
        "A Ann: pass",
        "B Bob: pass",
        "B Bob says: now",
    ]


def test_an_absent_seat_is_logged_with_when_a_bot_steps_in() -> None:
    clock = Clock()
    state = FedState("ws://x:1", "t", "Ann", clock=clock)
    state.feed(welcome())
    state.feed(table(NAMES))
    away = table(NAMES)
    away["table"]["seats"][1].update(connected=False, takeover_in=90.0)
    state.feed(away)
    logged = len(state.log)
    # Back within the grace (a server restart's reconnection): nothing is said.
    clock.now += AWAY_GRACE - 1
    state.feed(table(NAMES))
    assert len(state.log) == logged
    # Gone for longer: said once the grace is over, even with no message meanwhile.
    state.feed(away)
    clock.now += AWAY_GRACE - 1
    state.absences()
    assert len(state.log) == logged
    clock.now += 1
    state.absences()
    state.absences()
    assert [line.text for line in state.log[logged:]] == [
        "B Bob is away: a bot plays for them in 75 s unless they are back"
    ]
    clock.now += 15
    assert state.bot_in(1) == 60.0 and state.bot_in(2) is None
    played = table(NAMES)
    played["table"]["seats"][1].update(connected=False, bot=True)
    state.feed(played)
    assert state.log[-1].text == "a bot plays for B Bob until they are back"
    assert state.bot_in(1) is None
    state.feed(table(NAMES))
    assert state.log[-1].text == "B Bob is back"


def test_the_seats_clocks_count_down_from_the_update() -> None:
    clock = Clock()
    state = FedState("ws://x:1", "t", "Ann", clock=clock)
    clocks = [
        {"seat": 0, "reserve": 287.5, "left": 41.0},
        {"seat": 1, "reserve": 300.0, "left": None},
    ]
    update = an_update(3)
    state.feed({**update, "clocks": clocks})
    assert state.time_of(0) == "0:41" and state.time_of(1) == "+5m"
    assert state.time_of(2) is None
    clock.now += 30
    assert state.time_of(0) == "0:11"
    clock.now += 60
    assert state.time_of(0) == "0:00"
    state.feed(update)  # a table without a clock
    assert state.time_of(0) is None


def test_the_waiting_room_says_the_tables_clock() -> None:
    """Players joining a clocked table learn it before the game starts."""
    from types import SimpleNamespace

    from tyros_client.tui import render

    state = FedState("ws://x:1", "t", "Ann")
    state.feed(welcome())
    info = table(["Ann", None, None])
    info["table"].update(started=False, clock={"decision": 10, "reserve": 30})
    state.feed(info)
    text = fragment_list_to_text(render.table_text(SimpleNamespace(state=state)))
    assert "waiting for players, clock 10+30" in text
    bar = fragment_list_to_text(render.hand_text(SimpleNamespace(state=state)))
    assert bar.endswith("table t: 1 of 3 seats taken, waiting for 2 more players")
    assert len(bar) <= 78
    del info["table"]["clock"]
    state.feed(info)
    plain = fragment_list_to_text(render.table_text(SimpleNamespace(state=state)))
    assert "waiting for players\n" in plain and "clock" not in plain


def test_a_bots_decision_for_this_seat_says_for_you() -> None:
    event = {"type": "action", "seat": 1, "action": {"kind": "pass"}, "by": "takeover"}
    names: list[str | None] = ["Ann", "Bob", "Cyd"]
    assert describe_event(event, names, 1) == "B Bob: pass (a bot, for you)"
    assert describe_event(event, names, 0) == "B Bob: pass (a bot, for them)"
    assert describe_event(event, names, None) == "B Bob: pass (a bot, for them)"


def test_points_that_move_for_seats_that_did_not_act_are_said_in_the_log() -> None:
    """A seeded random game as seat 0 sees it, an update per action: whenever the running
    total of a seat that did not act moves, the log says why and by how much."""
    from tyros_client.scoresheet import running_sheet
    from tyros_rules import (
        Options,
        Phase,
        legal_actions,
        new_game,
        push,
        seats_to_act,
        view,
    )

    from tests.client.tui.harness import mid_game

    table, _ = mid_game(players=3, steps=0)
    state = FedState("ws://x:1", "t", "Ann")
    state.welcomed()
    state.feed(table)
    game = new_game(Options(players=3, seed=5))
    rng = random.Random(5)
    seen = 0
    moved = 0
    while game.phase != Phase.OVER:
        seat = seats_to_act(game)[0]
        before = running_sheet(view(game, 0))
        push(game, seat, rng.choice(legal_actions(game, seat)))
        log = game.log or []
        events = [shown for at, shown in events_seen(log, 0) if at >= seen]
        seen = len(log)
        state.feed(
            {
                "type": "update",
                "version": game.version,
                "events": events,
                "view": view(game, 0),
                "prompt": None,
            }
        )
        after = running_sheet(view(game, 0))
        if phase_of(game) == Phase.OVER or before is None or after is None:
            continue
        others = [
            (p["seat"], p["total"] - q["total"])
            for p, q in zip(after["players"], before["players"], strict=True)
            if p["total"] != q["total"] and p["seat"] != seat
        ]
        said = [line.text for line in state.log if line.version == game.version]
        points = [text for text in said if ": " in text and text.split(": ")[-1][:1] in "ABC"]
        if others:
            moved += 1
            assert points, f"points moved without a word at version {game.version}: {others}"
            for other, delta in others:
                assert f"{'ABC'[other]} " in points[-1] and f"{delta:+d}" in points[-1]
        else:
            assert not [t for t in said if t.endswith(tuple(f"{d:+d}" for d in range(-30, 31)))]
    assert moved >= 3, "the game should have moved others' points a few times"


def test_a_refused_join_draws_no_free_seats() -> None:
    """Refused at a finished 3-player table: no seats A-D drawn as if waiting."""
    from tyros_client.tui import render
    from tyros_client.tui.app import TyrosApp
    from tyros_client.words import error_words

    state = FedState("ws://x:1", "done", "Dan")
    state.fatal = error_words("table_finished", None)  # (what the network task sets)
    assert "--replay TABLE" in state.fatal
    ui = TyrosApp(state, colour=False)
    table = "".join(text for _, text, *_ in render.table_text(ui))
    hand = "".join(text for _, text, *_ in render.hand_text(ui))
    assert "free seat" not in table and "not joined" in table and "not joined" in hand
