"""The server's own bots: a hello that creates a table may ask for them in the other seats
(a player with nothing but a browser has no tyros-bot to start). They take their seats at
once, play at the table's pace for themselves (trades too), survive a restart, and no token
takes their seats."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_rules import Action, GameState, Kind, Phase, legal_actions, seats_to_act
from tyros_server.deputies import Decision
from tyros_server.session import Limits
from tyros_server.storage import StorageError

from .harness import Harness, first, first_legal

PACED = Limits(takeover_seconds=60, bot_pace_seconds=2)


def asked(harness: Harness) -> list[Decision]:
    harness.session.tick()
    harness.session.data_to_send()
    return [job for job in harness.session.drain_jobs() if isinstance(job, Decision)]


def until_a_bot_acts(harness: Harness) -> None:
    """Ann creates table ``solo`` with two of the server's bots and plays until one acts."""
    conn = harness.connect()
    harness.hello(conn, "solo", "Ann", players=3, bots=2, seed=3)
    state = harness.state("solo")
    while seats_to_act(state)[0] == 0:
        harness.play_one([conn], random.Random(1))


def test_a_table_created_with_bots_starts_at_once_and_they_play_for_themselves(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness(limits=PACED, takeover=first_legal)
    conn = harness.connect()
    out = harness.hello(conn, "solo", "Ann", players=3, bots=2, seed=3)
    assert first(out, conn, "welcome")["seat"] == 0
    info = harness.latest_table[conn]
    assert info["started"] is True
    assert [(s["name"], s["bot"], s["program"]) for s in info["seats"][1:]] == [
        ("bot-1", True, True),
        ("bot-2", True, True),
    ]
    state = harness.state("solo")
    seen_decisions = 0
    while state.phase != Phase.OVER and seen_decisions < 40:
        [seat, *_] = seats_to_act(state)
        if seat == 0:
            harness.play_one([conn], random.Random(seen_decisions))
            continue
        [decision] = asked(harness)  # at once: no owner to wait for
        assert decision.by == "seat" and decision.seat == seat
        assert decision.legal == legal_actions(state, seat)  # trades too: it plays for itself
        assert asked(harness) == []  # one at a time, at the table's pace
        harness.decided(decision, decision.run())
        harness.clock.advance(2)
        seen_decisions += 1
    assert seen_decisions == 40
    stored = harness.store.load_table("solo")
    assert stored is not None and all(by is None for by in stored.decided_by or [])


def test_bots_are_refused_for_every_seat_and_by_a_server_that_plays_none(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness(limits=PACED, takeover=first_legal)
    conn = harness.connect()
    out = harness.hello(conn, "crowd", "Ann", players=3, bots=3)
    refused = first(out, conn, "error")
    assert refused["code"] == ErrorCode.BAD_MESSAGE and "at most 2 bots" in refused["message"]
    assert harness.list_tables(conn)["tables"] == []  # nothing was created
    harness.close()
    without = make_harness(limits=PACED)  # no policy: nothing to play a seat with
    conn = without.connect()
    out = without.hello(conn, "solo", "Ann", players=3, bots=2)
    refused = first(out, conn, "error")
    assert refused["code"] == ErrorCode.BAD_MESSAGE and "plays no bots" in refused["message"]
    assert without.list_tables(conn)["tables"] == []


def test_after_a_restart_the_bots_play_on_at_once_and_no_token_takes_their_seats(
    make_harness: Callable[..., Harness],
) -> None:
    before = make_harness(limits=PACED, takeover=first_legal)
    until_a_bot_acts(before)
    before.close()
    after = make_harness(limits=PACED, takeover=first_legal)
    table = after.session.tables["solo"]
    assert [slot.house for slot in table.seats] == [False, True, True]
    assert all(slot.digest not in after.session.shared.by_digest for slot in table.seats[1:])
    [decision] = asked(after)  # not takeover_seconds later: the bot never left
    assert decision.by == "seat" and decision.seat != 0
    assert decision.legal == legal_actions(after.state("solo"), decision.seat)


def test_they_play_at_once_on_a_server_that_lets_no_bot_play_for_an_absent_owner(
    make_harness: Callable[..., Harness],
) -> None:
    """``--takeover off`` is about absent people: the server's own bots play on, after a
    restart too."""
    off = Limits(takeover_seconds=None, bot_pace_seconds=2)
    before = make_harness(limits=off, takeover=first_legal)
    until_a_bot_acts(before)
    [decision] = asked(before)
    assert decision.by == "seat"
    before.close()
    after = make_harness(limits=off, takeover=first_legal)
    assert after.session.next_deadline() is not None
    [decision] = asked(after)
    assert decision.by == "seat" and decision.seat != 0


def test_bots_the_store_refuses_leave_the_seat_taken_and_the_table_waiting(
    make_harness: Callable[..., Harness], monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = make_harness(limits=PACED, takeover=first_legal)
    add_seat = harness.store.add_seat

    def refuse_bots(table: str, seat: int, name: str, digest: str, program: bool = False) -> None:
        if name.startswith("bot-"):
            raise StorageError("disk full")
        add_seat(table, seat, name, digest, program)

    monkeypatch.setattr(harness.store, "add_seat", refuse_bots)
    conn = harness.connect()
    out = harness.hello(conn, "solo", "Ann", players=3, bots=2)
    assert first(out, conn, "welcome")["seat"] == 0
    error = first(out, conn, "error")
    assert error["re"] is None and error["code"] == ErrorCode.INTERNAL  # (not the hello's answer)
    assert [s["name"] for s in harness.latest_table[conn]["seats"]] == ["Ann", None, None]
    assert harness.latest_table[conn]["started"] is False


def trader(table: str, seat: int, seen: dict[str, Any], legal: list[Action]) -> Action:
    """A house bot that offers a trade to everyone whenever it may, accepts what it can and
    completes when it can: the eager trader the table manners must hold back."""
    for kind in (Kind.PROPOSE, Kind.COMPLETE):
        offers = [a for a in legal if a[0] == kind]
        if offers:
            return offers[0]
    return (Kind.ANSWER, 1) if (Kind.ANSWER, 1) in legal else legal[0]


def offered_to_ann(harness: Harness, conn: int) -> GameState:
    """Play (Ann passing, the bots trading) until a bot's offer waits for Ann's answer and
    every bot asked has answered it."""
    state = harness.state("solo")
    for _ in range(400):
        if state.phase == Phase.TRADE and seats_to_act(state) == [0, state.current] != [0, 0]:
            return state
        to_act = seats_to_act(state)
        if to_act[0] == 0 and state.phase != Phase.TRADE:
            harness.play_one([conn], random.Random(0), lambda _seat, legal: legal[0])
            continue
        jobs = asked(harness)
        for job in jobs:
            harness.decided(job, job.run())
        harness.clock.advance(2)
    raise AssertionError("no bot offered Ann a trade")


def test_a_house_bot_waits_for_the_persons_answer_to_its_offer(
    make_harness: Callable[..., Harness],
) -> None:
    """The other bots answer at once; the proposing bot neither completes nor withdraws
    while Ann (a person) thinks, and goes on as soon as she answers."""
    harness = make_harness(limits=PACED, takeover=trader)
    conn = harness.connect()
    harness.hello(conn, "solo", "Ann", players=3, bots=2, seed=3)
    state = offered_to_ann(harness, conn)
    proposer, version = state.current, state.version
    harness.clock.advance(50)  # most of the 60 s to answer: the bots have long been done
    assert asked(harness) == []
    assert state.version == version and seats_to_act(state) == [0, proposer]
    harness.play_one([conn], random.Random(0), lambda _seat, legal: legal[0])  # Ann declines
    [decision] = asked(harness)  # at once: nobody left to wait for
    assert decision.seat == proposer and decision.by == "seat"
    assert decision.people == frozenset({0})  # (its manners are told who Ann is)


def test_a_house_bot_goes_on_when_the_persons_time_to_answer_runs_out(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness(limits=PACED, takeover=trader)
    conn = harness.connect()
    harness.hello(conn, "solo", "Ann", players=3, bots=2, seed=3)
    state = offered_to_ann(harness, conn)
    proposer = state.current
    deadline = harness.session.tables["solo"].trade_deadline
    assert deadline is not None and harness.session.next_deadline() == deadline
    harness.clock.advance(deadline - harness.clock())
    [decision] = asked(harness)  # the clock declined for Ann; the bot decides at once
    assert decision.seat == proposer
    assert state.answers[0] == 0  # declined, by the clock
