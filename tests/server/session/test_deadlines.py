"""The sans-I/O session. Time: trade deadlines, offers withdrawn, and takeovers of absent seats."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from tyros_protocol.board import BOARD
from tyros_rules import (
    Phase,
    action_to_json,
    legal_actions,
    seats_to_act,
)
from tyros_server.session import Limits

from ..harness import (
    Harness,
    first,
    first_legal,
    snapshot,
    to,
)
from .play import play_until_proposal


def test_trade_deadline_declines_unanswered_seats(harness: Harness) -> None:
    seated = harness.join("t", 4, seed=9, trade_seconds=30)
    conns = [s.conn for s in seated]
    by_conn = {s.conn: s.seat for s in seated}
    rng = random.Random(9)
    proposer, proposal, out = play_until_proposal(harness, conns, rng)
    state = harness.state("t")
    assert state.phase == Phase.TRADE
    asked = proposal["to"]
    assert sorted(asked) == sorted(s for s in range(4) if s != by_conn[proposer])
    proposed_at = harness.clock.now
    for s in seated:
        update = first(out, s.conn, "update")
        if s.seat in asked:
            assert update["prompt"]["deadline"] == pytest.approx(30.0)
            assert {a["kind"] for a in update["prompt"]["legal"]} <= {"answer", "counter"}
        else:
            assert update["prompt"]["deadline"] is None
            assert {a["kind"] for a in update["prompt"]["legal"]} == {"withdraw"}
    assert harness.session.next_deadline() == pytest.approx(proposed_at + 30)
    # One asked seat declines in time; the others do not answer.
    answering = next(s for s in seated if s.seat == asked[0])
    harness.clock.advance(10)
    out = harness.act(answering.conn, {"kind": "answer", "accept": False})
    assert first(out, answering.conn, "accepted")
    later = next(s for s in seated if s.seat == asked[1])
    assert first(out, later.conn, "update")["prompt"]["deadline"] == pytest.approx(20.0)
    # Not yet: nothing happens.
    harness.clock.advance(19.5)
    version = state.version
    assert harness.tick() == []
    assert state.version == version and state.phase == Phase.TRADE
    # Time is up: every unanswered asked seat declines, stored like any action.
    harness.clock.advance(0.5)
    out = harness.tick()
    silent = asked[1:]
    assert state.version == version + len(silent)
    stored = harness.store.load_table("t")
    assert stored is not None
    assert stored.actions[-len(silent) - 1 :] == [
        (seat, {"kind": "answer", "accept": False}) for seat in asked
    ]
    assert len(stored.actions) == state.version
    # Marked as time running out, not as those seats' own choice (the record says so too).
    assert stored.decided_by is not None
    assert stored.decided_by[-len(silent) :] == ["clock"] * len(silent)
    assert stored.decided_by[-len(silent) - 1] is None  # the one who declined in time
    for s in seated:
        assert to(out, s.conn, "update"), "everyone hears of the declines"
    assert harness.prompted(conns) == [proposer]
    assert harness.tick() == []  # nothing twice
    assert state.version == version + len(silent)


def test_no_deadline_is_pending_once_every_asked_seat_answered(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=9, trade_seconds=30)
    conns = [s.conn for s in seated]
    _, proposal, _ = play_until_proposal(harness, conns, random.Random(9))
    for s in seated:
        if s.seat in proposal["to"]:
            harness.act(s.conn, {"kind": "answer", "accept": False})
    state = harness.state("t")
    assert seats_to_act(state) == [state.current]  # only the proposer still acts
    # The trade's answers are all in: what is pending is the proposer's own time.
    table = harness.session.tables["t"]
    assert table.trade_deadline is not None
    grace = harness.session.limits.proposer_grace_seconds
    assert harness.session.next_deadline() == table.trade_deadline + grace


def test_a_proposer_who_sits_on_an_offer_has_it_withdrawn(harness: Harness) -> None:
    """At a table without a clock nobody else can end a trade: once the answers' time and
    the proposer's grace are up, the offer is withdrawn for the proposer (the clock's)."""
    seated = harness.join("t", 3, seed=9, trade_seconds=30)
    proposer, _, _ = play_until_proposal(harness, [s.conn for s in seated], random.Random(9))
    state = harness.state("t")
    proposing = state.current
    table = harness.session.tables["t"]
    assert table.trade_deadline is not None
    grace = harness.session.limits.proposer_grace_seconds
    harness.clock.now = table.trade_deadline  # nobody answered: declined by the clock
    harness.tick()
    assert seats_to_act(state) == [state.current] and state.phase == Phase.TRADE
    harness.clock.now = table.trade_deadline + grace - 0.1
    assert harness.tick() == [] and state.phase == Phase.TRADE
    harness.clock.advance(0.1)
    out = harness.tick()
    assert state.phase != Phase.TRADE
    stored = harness.store.load_table("t")
    assert stored is not None
    assert stored.actions[-1] == (proposing, {"kind": "withdraw"})
    assert stored.decided_by[-1] == "clock"
    assert first(out, proposer, "update")["events"]


def test_takeover_plays_a_disconnected_seat_after_the_delay(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness(
        limits=Limits(takeover_seconds=5, bot_pace_seconds=0), takeover=first_legal
    )
    seated = harness.join("t", 3, seed=12)
    state = harness.state("t")
    [acting] = seats_to_act(state)
    gone = seated[acting]
    others = [s for s in seated if s is not gone]
    out = harness.disconnect(gone.conn)
    for s in others:
        seats = first(out, s.conn, "table")["table"]["seats"]
        assert seats[acting]["connected"] is False and seats[acting]["bot"] is False
        assert seats[acting]["takeover_in"] == 5.0  # the others see when a bot steps in
        assert all("takeover_in" not in seat for seat in seats if seat["connected"])
    left_at = harness.clock.now
    assert harness.session.next_deadline() == pytest.approx(left_at + 5)
    harness.clock.advance(2)
    [info] = harness.list_tables(others[0].conn)["tables"]
    assert info["seats"][acting]["takeover_in"] == 3.0
    # Not before five seconds.
    harness.clock.advance(2.9)
    before = snapshot(state)
    assert harness.tick() == []
    assert snapshot(state) == before
    # Then the policy plays every decision that is the absent seat's.
    expected = [action_to_json(legal_actions(state, acting)[0], BOARD)]
    version = state.version
    harness.clock.advance(0.1)
    out = harness.tick()
    assert state.version > version
    assert acting not in seats_to_act(state) or state.phase == Phase.OVER
    stored = harness.store.load_table("t")
    assert stored is not None
    played = stored.actions[version:]
    assert all(seat == acting for seat, _ in played)
    assert played[0] == (acting, expected[0])
    for s in others:
        assert to(out, s.conn, "update")
    # The table shows a bot in the absent seat.
    [info] = harness.list_tables(others[0].conn)["tables"]
    assert info["seats"][acting] == {
        "seat": acting,
        "name": f"P{acting}",
        "connected": False,
        "bot": True,
    }
    # The owner comes back: no bot any more, and the seat waits for its owner again.
    back = harness.connect()
    out = harness.resume(back, gone.token)
    assert first(out, back, "table")["table"]["seats"][acting]["bot"] is False
    assert first(out, others[0].conn, "table")["table"]["seats"][acting]["connected"] is True
    rng = random.Random(12)
    conns = sorted([s.conn for s in others] + [back])
    for _ in range(20):
        if state.phase == Phase.OVER:
            break
        harness.play_one(conns, rng)
        assert harness.tick() == []


def test_a_bot_playing_for_an_absent_player_never_trades_their_cards(
    make_harness: Callable[..., Harness],
) -> None:
    """Whatever the takeover policy would like, it makes no offer, no counter-offer and
    accepts none for a person who is away: it declines (a trial player came back to find
    their only green traded away by the bot)."""

    def eager(table: str, seat: int, seen: dict[str, Any], legal: list[Any]) -> Any:
        from tyros_rules.actions import K_ANSWER, K_COUNTER, K_PROPOSE

        for kind in (K_ANSWER, K_COUNTER, K_PROPOSE):  # accept first, if it is offered
            found = [a for a in legal if a[0] == kind and a != (K_ANSWER, 0)]
            if found:
                return found[0]
        return legal[-1]

    harness = make_harness(limits=Limits(takeover_seconds=5, bot_pace_seconds=0), takeover=eager)
    seated = harness.join("t", 3, seed=12)
    state = harness.state("t")
    gone = seated[0]
    harness.disconnect(gone.conn)
    harness.clock.advance(5)
    rng = random.Random(3)
    conns = [s.conn for s in seated[1:]]
    start = state.version
    for _ in range(400):
        harness.tick()
        if state.phase == Phase.OVER or not harness.prompted(conns):
            continue
        harness.play_one(conns, rng)  # random players: they propose to seat 0 often
    stored = harness.store.load_table("t")
    assert stored is not None and stored.decided_by is not None
    after = zip(stored.actions[start:], stored.decided_by[start:], strict=True)
    mine = [(action, by) for (seat, action), by in after if seat == 0]
    answers = [action for action, _ in mine if action["kind"] == "answer"]
    assert len(answers) >= 5 and not any(a["accept"] for a in answers)  # asked, declined
    assert not any(action["kind"] in ("propose", "counter") for action, _ in mine)
    assert {by for _, by in mine} == {"takeover"}


def test_takeover_is_announced_in_a_table_message(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(limits=Limits(takeover_seconds=5), takeover=first_legal)
    seated = harness.join("t", 3, seed=12)
    [acting] = seats_to_act(harness.state("t"))
    harness.disconnect(seated[acting].conn)
    harness.clock.advance(5)
    out = harness.tick()
    other = next(s for s in seated if s.seat != acting)
    tables = to(out, other.conn, "table")
    assert tables, "the other seats are not told that a bot now plays the absent seat"
    assert tables[0]["table"]["seats"][acting]["bot"] is True


def test_without_a_policy_the_table_waits(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(limits=Limits(takeover_seconds=5))
    seated = harness.join("t", 3, seed=12)
    state = harness.state("t")
    [acting] = seats_to_act(state)
    harness.disconnect(seated[acting].conn)
    assert harness.session.next_deadline() is None
    harness.clock.advance(1000)
    before = snapshot(state)
    assert harness.tick() == []
    assert snapshot(state) == before
