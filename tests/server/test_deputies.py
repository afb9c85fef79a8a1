"""The server's decisions for seats (takeover bots, the clock's decisions), made off the
event loop: asked for by the session, run by the shell's worker, applied like a player's
action only if the seat still faces the question, at most one per seat, at a table's pace.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from typing import Any

from tyros_client.bots import make_bot
from tyros_client.bots.manners import Manners
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_rules import (
    Action,
    GameState,
    Kind,
    Options,
    Phase,
    action_to_json,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)
from tyros_server.deputies import (
    Advice,
    Decision,
    Farewell,
    Offers,
    RandomPlayer,
    SeatBots,
    SeatPlayer,
    offers_made,
)
from tyros_server.session import Limits, Send
from tyros_server.strategies import bot_takeover

from .conftest import STEP_TIMEOUT, RawClient, ServerFactory, url_of
from .harness import Harness, first, first_legal, only_error

ABSENT = Limits(takeover_seconds=5, bot_pace_seconds=2)
PERSON = frozenset({0})
"""The seat a person holds, in the games below that play a table directly."""


def absent_table(make_harness: Callable[..., Harness], **kwargs: Any) -> Harness:
    """A 3-player table whose players all left at once."""
    harness = make_harness(limits=ABSENT, **kwargs)
    for seated in harness.join("t", 3, seed=12):
        harness.disconnect(seated.conn)
    return harness


def asked(harness: Harness) -> list[Decision]:
    """Tick, and the decisions the session asks for (not made: the test makes them)."""
    harness.session.tick()
    harness.session.data_to_send()
    return [job for job in harness.session.drain_jobs() if isinstance(job, Decision)]


def test_a_table_of_absent_players_plays_at_a_persons_pace(
    make_harness: Callable[..., Harness],
) -> None:
    harness = absent_table(make_harness, takeover=first_legal)
    state = harness.state("t")
    harness.clock.advance(5)
    harness.tick()
    assert state.version == 1  # one decision, not the whole game in one burst
    assert harness.session.next_deadline() == harness.clock.now + 2
    harness.clock.advance(1.9)
    harness.tick()
    assert state.version == 1
    harness.clock.advance(0.1)
    harness.tick()
    assert state.version == 2
    stored = harness.store.load_table("t")
    assert stored is not None and stored.decided_by == ["takeover", "takeover"]


def test_one_decision_per_seat_is_asked_for_and_the_time_waits_for_it(
    make_harness: Callable[..., Harness],
) -> None:
    harness = absent_table(make_harness, takeover=first_legal)
    harness.clock.advance(5)
    [decision] = asked(harness)
    assert decision.by == "takeover" and decision.version == 0
    assert decision.view["viewer"] == decision.seat  # the seat's own view, nothing more
    assert "hand" in decision.view and "seed" not in decision.view
    assert asked(harness) == []  # still in flight: not asked twice
    assert harness.session.next_deadline() is None  # nothing to do until it comes back
    harness.decided(decision, decision.run())
    assert harness.state("t").version == 1


def test_a_decision_for_a_seat_whose_owner_came_back_is_dropped(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness(limits=ABSENT, takeover=first_legal)
    seated = harness.join("t", 3, seed=12)
    [acting] = seats_to_act(harness.state("t"))
    harness.disconnect(seated[acting].conn)
    harness.clock.advance(5)
    [decision] = asked(harness)
    back = harness.connect()
    harness.resume(back, seated[acting].token)
    assert harness.decided(decision, decision.run()) == []
    assert harness.state("t").version == 0  # the owner decides
    assert asked(harness) == []


def test_a_decision_made_for_a_question_since_answered_is_dropped(
    make_harness: Callable[..., Harness],
) -> None:
    harness = absent_table(make_harness, takeover=first_legal)
    harness.clock.advance(5)
    [decision] = asked(harness)
    stale = Decision("t", decision.seat, decision.version, "takeover", {}, [], first_legal)
    harness.decided(decision, decision.run())
    assert harness.state("t").version == 1
    assert harness.decided(stale, decision.legal[0]) == []  # never asked: ignored
    harness.clock.advance(2)
    [again] = asked(harness)
    harness.decided(again, again.run())
    version = harness.state("t").version
    assert harness.decided(again, again.legal[0]) == []  # answered once already
    assert harness.state("t").version == version


def test_a_failed_illegal_or_negotiating_choice_becomes_the_cautious_one(
    make_harness: Callable[..., Harness],
) -> None:
    harness = absent_table(make_harness, takeover=first_legal)
    state = harness.state("t")
    wrong: list[Action | None] = [None, (Kind.PASS,), (Kind.ANSWER, 1)]
    for choice in wrong:
        harness.clock.advance(2 if state.version else 5)
        [decision] = asked(harness)
        cautious = decision.legal[0]
        version = state.version
        harness.decided(decision, choice)
        assert state.version == version + 1, choice
        stored = harness.store.load_table("t")
        assert stored is not None
        assert stored.actions[-1] == (decision.seat, action_to_json(cautious, BOARD))


def test_a_policy_that_raises_is_a_failed_choice() -> None:
    def broken(table: str, seat: int, seen: dict[str, Any], legal: list[Action]) -> Action:
        raise RuntimeError("a bot's bug")

    assert Decision("t", 0, 0, "takeover", {}, [(Kind.PASS,)], broken).run() is None


def test_the_bots_of_a_finished_table_are_dropped(make_harness: Callable[..., Harness]) -> None:
    made: list[int] = []

    def factory(seat: int, rng: random.Random) -> SeatPlayer:
        made.append(seat)
        return RandomPlayer(seat, random.Random(seat))

    policy = SeatBots(factory)
    harness = make_harness(limits=Limits(takeover_seconds=5, bot_pace_seconds=0), takeover=policy)
    for seated in harness.join("t", 3, seed=12):
        harness.disconnect(seated.conn)
    harness.clock.advance(5)
    state = harness.state("t")
    for _ in range(50):
        harness.tick()
        if state.phase == Phase.OVER:
            break
        harness.clock.advance(1)
    assert state.phase == Phase.OVER
    assert sorted(made) == [0, 1, 2]  # one player a seat, made once
    assert policy.players == {}  # said farewell at the end


def test_a_farewell_forgets_only_its_table() -> None:
    policy = SeatBots(RandomPlayer)
    legal: list[Action] = [(Kind.PASS,)]
    for table in ("a", "b"):
        policy(table, 0, {}, legal)
    Farewell("a", policy).run()
    assert list(policy.players) == [("b", 0)]
    Farewell("b", first_legal).run()  # a plain function has nothing to forget


def test_a_seat_bot_is_told_who_the_people_are_before_it_decides() -> None:
    """A decision carries the table's people; a bot with ``manners`` learns them (less its
    own seat), a player without is left alone, a plain function has nothing to be told."""

    class Mannered(RandomPlayer):
        def __init__(self, seat: int, rng: random.Random) -> None:
            super().__init__(seat, rng)
            self.manners = Manners()

    policy = SeatBots(Mannered)
    legal: list[Action] = [(Kind.PASS,)]
    assert Decision("t", 1, 0, "seat", {}, legal, policy, frozenset({0, 1})).run() == legal[0]
    player = policy.players[("t", 1)]
    assert isinstance(player, Mannered) and player.manners.people == frozenset({0})
    plain = SeatBots(RandomPlayer)
    assert Decision("t", 1, 0, "seat", {}, legal, plain, frozenset({0})).run() == legal[0]
    assert Decision("t", 1, 0, "seat", {}, legal, first_legal, frozenset({0})).run() == legal[0]


def test_a_hint_never_offers_again_terms_the_seat_offered_this_round() -> None:
    """A person follows the hints of the greedy bot, and every offer is declined. A bot that
    lost its memory (a restart, a table brought back from disk: here, a bot that saw nothing
    before each hint) would suggest the same terms to the same seats again; told the seat's
    offers this round from the record, it does not."""
    state = new_game(Options(players=3, seed=7))

    def greedy() -> SeatBots:  # (seeded: the same position, the same choice)
        return bot_takeover(lambda seat, _rng: make_bot("greedy", seat, random.Random(seat)))

    others = greedy()

    def choice(policy: SeatBots, seat: int, offers: Offers | None = None) -> Action:
        seen, legal = view(state, seat), legal_actions(state, seat)
        action = Advice(
            0, None, "t", seat, state.version, seen, legal, policy, PERSON, offers
        ).run()
        assert action is not None
        return action

    for _ in range(1000):
        seat = seats_to_act(state)[0]
        if seat == 0 and state.phase == Phase.ACTIONS:
            made, round_ = offers_made(state, 0)
            action = choice(greedy(), 0)  # (a bot that saw nothing before)
            if action in made:
                break
        elif state.phase == Phase.TRADE and seat != state.current:
            action = (Kind.ANSWER, 0)  # declined
        else:
            action = choice(others, seat)
        push(state, seat, action)
    else:
        raise AssertionError("the hints never offered the same terms twice in a round")
    assert made[0][0] == Kind.PROPOSE
    assert choice(greedy(), 0) in made  # the same again, unless...
    assert choice(greedy(), 0, (made, round_)) not in made


async def test_a_slow_bot_never_holds_up_the_server(make_server: ServerFactory) -> None:
    """The takeover bot thinks (here: waits) as long as it likes; meanwhile the server
    answers everyone else, and the bot's choice is applied once it comes."""
    thinking, release = threading.Event(), threading.Event()

    def slow(table: str, seat: int, seen: dict[str, Any], legal: list[Action]) -> Action:
        thinking.set()
        release.wait(STEP_TIMEOUT)
        return legal[0]

    server = await make_server(
        takeover=slow, limits=Limits(takeover_seconds=0.05, bot_pace_seconds=0)
    )
    url = url_of(server)
    players = [await RawClient.open(url) for _ in range(3)]
    for i, player in enumerate(players):
        await player.hello("slow", f"P{i}", players=3, seed=4)
    watcher = await RawClient.open(url)
    try:
        welcome = await watcher.hello("slow", "W", spectate=True)
        assert welcome["type"] == "welcome"
        for player in players:
            await player.close()
        assert await asyncio.to_thread(thinking.wait, STEP_TIMEOUT)
        # The bot is thinking: the server still answers at once.
        for _ in range(3):
            [table] = await watcher.list_tables()
            assert server.session.tables["slow"].state.version == 0  # type: ignore[union-attr]
        assert any(seat["bot"] for seat in table["seats"])
        release.set()
        update = await watcher.recv_until(lambda m: m["type"] == "update" and m["version"] >= 1)
        assert [e.get("by") for e in update["events"] if e["type"] == "action"] == ["takeover"]
    finally:
        release.set()
        await watcher.close()


# Advice: a hint for a client with no bot of its own ------------------------------------


def advice_asked(harness: Harness) -> list[Advice]:
    return [job for job in harness.session.drain_jobs() if isinstance(job, Advice)]


def seated_to_advise(make_harness: Callable[..., Harness]) -> tuple[Harness, int, GameState]:
    """A 3-player table with a bot to advise, the connection of the seat to act, its game."""
    harness = make_harness(takeover=first_legal)
    seated = harness.join("t", 3, seed=4)
    state = harness.state("t")
    return harness, seated[state.current].conn, state


def test_advice_is_the_bots_choice_sent_to_the_seat_that_asked_and_marks_its_decision(
    make_harness: Callable[..., Harness],
) -> None:
    harness, conn, state = seated_to_advise(make_harness)
    before = state.version
    hint = {"type": "hint", "id": 7, "version": before, "advice": True}
    assert harness.send(conn, hint) == []  # thought about off the loop
    [advice] = advice_asked(harness)
    assert advice.seat == state.current and advice.legal == legal_actions(state, advice.seat)
    assert advice.view == view(state, advice.seat)  # the seat's own view: nothing more
    assert advice.offers == offers_made(state, advice.seat) == ((), state.round)  # (told)
    harness.session.advised(advice, advice.run())
    out = harness.drained()
    assert [(item.conn, item.message) for item in out if isinstance(item, Send)] == [
        (
            conn,
            {
                "type": "advice",
                "re": 7,
                "version": before,
                "action": action_to_json(advice.legal[0], BOARD),
            },
        )
    ]
    assert state.version == before  # advice is never played
    harness.act(conn, action_to_json(advice.legal[0], BOARD))
    stored = harness.store.load_table("t")
    assert stored is not None and stored.hinted == [True]


def test_one_advice_at_a_time_and_none_for_a_connection_that_left(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness(takeover=first_legal)
    seated = harness.join("t", 3, seed=4)
    state = harness.state("t")
    conn = seated[state.current].conn
    hint = {"type": "hint", "id": 7, "version": state.version, "advice": True}
    harness.send(conn, hint)
    only_error(harness.send(conn, {**hint, "id": 8}), conn, ErrorCode.RATE_LIMITED, 8)
    [advice] = advice_asked(harness)
    harness.disconnect(conn)
    harness.session.advised(advice, advice.run())
    assert harness.drained() == []
    again = harness.connect()
    harness.send(
        again, {"type": "resume", "id": 9, "protocol": 1, "token": seated[state.current].token}
    )
    harness.send(again, {**hint, "id": 10})
    assert len(advice_asked(harness)) == 1  # the seat may ask again


def test_no_advice_without_a_bot_or_a_decision_and_none_at_a_table_without_hints(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness()  # no takeover policy: no bot to ask
    seated = harness.join("t", 3, seed=4)
    state = harness.state("t")
    current = seated[state.current].conn
    idle = next(s.conn for s in seated if s.conn != current)
    for conn in (current, idle):
        out = harness.send(
            conn, {"type": "hint", "id": 3, "version": state.version, "advice": True}
        )
        assert first(out, conn, "advice") == {
            "type": "advice",
            "re": 3,
            "version": state.version,
            "action": None,
        }
    plain = make_harness(takeover=first_legal)
    seated = plain.join("off", 3, seed=4, hints=False)
    hint = {"type": "hint", "id": 4, "version": 0, "advice": True}
    only_error(plain.send(seated[0].conn, hint), seated[0].conn, ErrorCode.HINTS_OFF, 4)
    assert advice_asked(plain) == []


def test_advice_marks_the_decision_it_is_about_whatever_version_was_named(
    make_harness: Callable[..., Harness],
) -> None:
    """Advice is always about the decision the seat has now: it is marked even if the hint
    named another version. A spectator gets no advice."""
    harness, conn, _ = seated_to_advise(make_harness)
    harness.send(conn, {"type": "hint", "id": 7, "version": 99, "advice": True})
    [advice] = advice_asked(harness)
    harness.session.advised(advice, advice.run())
    harness.act(conn, action_to_json(advice.legal[0], BOARD))
    stored = harness.store.load_table("t")
    assert stored is not None and stored.hinted == [True]
    watcher = harness.connect()
    harness.hello(watcher, "t", "Zed", spectate=True)
    out = harness.send(watcher, {"type": "hint", "id": 8, "version": 1, "advice": True})
    assert first(out, watcher, "advice")["action"] is None
    assert advice_asked(harness) == []
