"""The sans-I/O session: joining, acting, errors, time, takeovers, restarts.

Every test drives :class:`Session` directly through :class:`Harness` (``harness.py``),
which validates every outbound message against the protocol's ``SERVER_ADAPTER`` (after
a trip through JSON, as on the wire) and checks that each ``update``'s prompt is present
exactly for the seats in ``view.to_act``. Time is a fake clock (a mutable float).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_rules import (
    IllegalActionError,
    Phase,
    Reason,
    action_to_json,
    check_action,
    event_versions,
    event_view,
    legal_actions,
    parse_action,
    score_game,
    seats_to_act,
    view,
)
from tyros_rules.state import GameState
from tyros_server.session import Close, Limits, Output, Send, Session
from tyros_server.storage import StorageError, Store

from .harness import (
    MAX_STEPS,
    TOKEN,
    FakeClock,
    Harness,
    chance_state,
    first,
    first_legal,
    only_error,
    snapshot,
    to,
)

# Joining ------------------------------------------------------------------------------------


def test_list_tables_before_hello(harness: Harness) -> None:
    conn = harness.connect()
    assert harness.list_tables(conn)["tables"] == []
    other = harness.connect()
    harness.hello(other, "friday", "Ann", players=3)
    [info] = harness.list_tables(conn)["tables"]
    assert info["name"] == "friday" and info["players"] == 3 and info["setup"] == "first"
    assert info["started"] is False and info["finished"] is False and "winners" not in info
    assert info["seats"][0] == {"seat": 0, "name": "Ann", "connected": True, "bot": False}
    assert [s["name"] for s in info["seats"][1:]] == [None, None]
    # list_tables does not join: the connection may still say hello.
    assert first(harness.hello(conn, "friday", "Bo"), conn, "welcome")["seat"] == 1


@pytest.mark.parametrize("players", [3, 4])
def test_hello_creates_a_table_and_seats_fill_in_join_order(harness: Harness, players: int) -> None:
    conns: list[int] = []
    tokens: list[str] = []
    for seat in range(players):
        conn = harness.connect()
        conns.append(conn)
        id_ = 40 + seat
        out = harness.send(
            conn,
            {
                "type": "hello",
                "id": id_,
                "protocol": 1,
                "name": f"N{seat}",
                "table": "t1",
                "players": players,
                "seed": 11,
            },
        )
        welcome = first(out, conn, "welcome")
        assert welcome == {
            "type": "welcome",
            "re": id_,
            "protocol": PROTOCOL_VERSION,
            "table": "t1",
            "seat": seat,
            "name": f"N{seat}",
            "token": welcome["token"],
        }
        assert TOKEN.match(welcome["token"])
        tokens.append(welcome["token"])
        # Everyone seated so far hears who sits at the table.
        for earlier in conns:
            table = first(out, earlier, "table")["table"]
            assert [s["name"] for s in table["seats"]] == (
                [f"N{i}" for i in range(seat + 1)] + [None] * (players - seat - 1)
            )
            assert all(s["connected"] for s in table["seats"][: seat + 1])
            assert table["started"] is (seat == players - 1)
        if seat < players - 1:
            assert to(out, conn, "update") == []
            only_error(
                harness.act(conn, {"kind": "pass"}, 0, id_=5), conn, ErrorCode.NOT_STARTED, 5
            )
    assert len(set(tokens)) == players
    # The last seat started the game: every seat got an update, prompted iff it must act.
    state = harness.state("t1")
    assert state.players == players and state.options.seed == 11
    to_act = seats_to_act(state)
    assert to_act
    for seat, conn in enumerate(conns):
        [update] = to(out, conn, "update")
        assert update["view"]["viewer"] == seat
        assert update["view"]["to_act"] == to_act
        assert (update["prompt"] is not None) == (seat in to_act)
        assert update["events"], "the first update carries the setup events"
        assert update["view"]["hand"] is not None


def test_tokens_are_not_written_to_the_database(harness: Harness) -> None:
    seated = harness.join("t", 4)
    harness.close()
    raw = b"".join(
        path.read_bytes()
        for path in harness.path.parent.iterdir()
        if path.name.startswith(harness.path.name)
    )
    assert b"P3" in raw  # the names are there...
    for s in seated:
        assert TOKEN.match(s.token)
        assert s.token.encode() not in raw  # ...the tokens are not


def test_options_of_a_later_hello_are_ignored(harness: Harness) -> None:
    a, b = harness.connect(), harness.connect()
    harness.hello(a, "t", "A", players=3, setup="variable", trade_seconds=30)
    harness.hello(b, "t", "B", players=4, setup="first", trade_seconds=600)
    table = harness.session.tables["t"]
    assert table.options.players == 3 and table.options.setup == "variable"
    assert table.trade_seconds == 30


def test_table_full(harness: Harness) -> None:
    harness.join("full", 3)
    late = harness.connect()
    out = harness.send(
        late, {"type": "hello", "id": 9, "protocol": 1, "name": "Late", "table": "full"}
    )
    only_error(out, late, ErrorCode.TABLE_FULL, 9)
    # The refused connection has joined nothing: it can still watch.
    assert first(harness.hello(late, "full", "Late", spectate=True), late, "welcome")


def test_spectators_see_public_views_and_cannot_act(harness: Harness) -> None:
    seated = harness.join("show", 4, seed=3)
    watcher = harness.connect()
    out = harness.hello(watcher, "show", "Eve", spectate=True)
    welcome = first(out, watcher, "welcome")
    assert (welcome["seat"], welcome["name"], welcome["token"]) == (None, None, None)
    assert first(out, watcher, "table")["table"]["spectators"] == 1
    # The others hear of spectators in one notice a little later, not one by one.
    assert all(not to(out, s.conn) for s in seated)
    harness.clock.advance(Limits().notice_seconds)
    notice = harness.tick()
    for s in seated:
        assert first(notice, s.conn, "table")["table"]["spectators"] == 1
    update = first(out, watcher, "update")
    assert update["view"]["viewer"] is None and update["prompt"] is None
    assert "hand" not in update["view"] and "tiles" not in update["view"]
    assert update["view"] == view(harness.state("show"), None)
    # A spectator acting is refused, and nothing changes.
    before = snapshot(harness.state("show"))
    only_error(harness.act(watcher, {"kind": "pass"}, id_=31), watcher, ErrorCode.SPECTATOR, 31)
    assert snapshot(harness.state("show")) == before
    # Spectators get every later update too, always public.
    rng = random.Random(3)
    state = harness.state("show")
    assert state.log is not None
    for _ in range(8):
        start = len(state.log)
        out = harness.play_one([s.conn for s in seated], rng)
        seen = first(out, watcher, "update")
        assert seen["view"] == view(state, None)
        new = state.log[start:]
        versions = event_versions(new, state.version)
        assert versions[0] == state.version  # one decision: all it caused has its version
        public = [
            e
            for event, version in zip(new, versions, strict=True)
            if (e := event_view(event, None, version)) is not None
        ]
        assert seen["events"] == public
    # A spectator leaving is counted out, and the others are told in the next notice.
    assert harness.disconnect(watcher) == []
    harness.clock.advance(Limits().notice_seconds)
    left = harness.tick()
    notices = [item for item in left if isinstance(item, Send)]
    assert left and notices == left  # all sent, nothing closed
    assert all(item.message["type"] == "table" for item in notices)
    assert all(item.message["table"]["spectators"] == 0 for item in notices)
    assert {item.conn for item in left} == {s.conn for s in seated}
    assert harness.session.tables["show"].spectators == set()


def test_spectating_a_missing_table(harness: Harness) -> None:
    conn = harness.connect()
    out = harness.send(
        conn,
        {"type": "hello", "id": 3, "protocol": 1, "name": "E", "table": "nope", "spectate": True},
    )
    only_error(out, conn, ErrorCode.NO_SUCH_TABLE, 3)
    assert harness.session.tables == {}


def test_hello_twice(harness: Harness) -> None:
    [seated, *_] = harness.join("t", 3)
    out = harness.send(
        seated.conn, {"type": "hello", "id": 12, "protocol": 1, "name": "X", "table": "other"}
    )
    only_error(out, seated.conn, ErrorCode.ALREADY_JOINED, 12)
    out = harness.send(
        seated.conn, {"type": "resume", "id": 13, "protocol": 1, "token": seated.token}
    )
    only_error(out, seated.conn, ErrorCode.ALREADY_JOINED, 13)
    assert "other" not in harness.session.tables


def test_wrong_protocol_version(harness: Harness) -> None:
    conn = harness.connect()
    out = harness.send(
        conn,
        {"type": "hello", "id": 1, "protocol": PROTOCOL_VERSION + 1, "name": "A", "table": "t"},
    )
    only_error(out, conn, ErrorCode.UNSUPPORTED_PROTOCOL, 1)
    out = harness.send(conn, {"type": "resume", "id": 2, "protocol": 0, "token": "x"})
    only_error(out, conn, ErrorCode.UNSUPPORTED_PROTOCOL, 2)
    assert harness.session.tables == {}
    assert first(harness.hello(conn, "t", "A"), conn, "welcome")["seat"] == 0


def test_action_before_hello(harness: Harness) -> None:
    harness.join("t", 3)
    conn = harness.connect()
    out = harness.send(conn, {"type": "action", "id": 4, "version": 0, "action": {"kind": "pass"}})
    only_error(out, conn, ErrorCode.HELLO_FIRST, 4)


# Acting ----------------------------------------------------------------------------------------


def test_stale_version(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=5)
    rng = random.Random(5)
    for _ in range(3):
        harness.play_one([s.conn for s in seated], rng)
    state = harness.state("t")
    [conn] = harness.prompted([s.conn for s in seated])[:1]
    action = harness.latest[conn]["prompt"]["legal"][0]
    before = snapshot(state)
    for version in (state.version - 1, state.version + 1, 0):
        only_error(harness.act(conn, action, version, id_=8), conn, ErrorCode.STALE_VERSION, 8)
    assert snapshot(state) == before
    assert first(harness.act(conn, action, state.version), conn, "accepted")


def expected_refusal(state: GameState, seat: int, action: dict[str, Any]) -> Reason | None:
    """What the engine says of an action (None: it is legal)."""
    try:
        check_action(state, seat, parse_action(action, BOARD))
    except IllegalActionError as exc:
        return exc.reason
    return None


def probes(state: GameState, seat: int) -> list[dict[str, Any]]:
    others = [s for s in range(state.players) if s != seat]
    return [
        {"kind": "pass"},
        {"kind": "move", "from": "TY", "to": "99", "pay": []},
        {"kind": "move", "from": "16", "to": "1", "pay": []},
        {"kind": "expand", "tile": "TY", "colour": "green"},
        {"kind": "ship", "space": "TY", "pay": []},
        {"kind": "bank_draw", "pay": ["wild", "wild", "wild"]},
        {"kind": "bank_draw", "pay": ["orange"]},
        {"kind": "keep", "cards": ["green", "green", "green"]},
        {"kind": "answer", "accept": True},
        {"kind": "complete", "with": others[0]},
        {"kind": "withdraw"},
        {"kind": "give_card", "card": "wild"},
        {"kind": "propose", "to": [seat], "give": ["orange"], "get": ["green"]},
        {"kind": "propose", "to": others, "give": ["wild"] * 4, "get": ["green"]},
        {"kind": "propose", "to": others, "give": ["orange"], "get": ["green"]},
        {"kind": "propose", "to": others, "give": [], "get": ["green"]},
    ]


def test_illegal_actions_map_to_error_codes_and_change_nothing(harness: Harness) -> None:
    seated = harness.join("t", 4, seed=21)
    conns = [s.conn for s in seated]
    rng = random.Random(21)
    state = harness.state("t")
    reasons: set[str] = set()
    for step in range(MAX_STEPS):
        if state.phase == Phase.OVER:
            break
        if step % 2 == 0:
            for s in seated:
                for action in probes(state, s.seat):
                    reason = expected_refusal(state, s.seat, action)
                    if reason is None:
                        continue
                    before = snapshot(state)
                    harness.clock.advance(0.05)  # within the rate limit
                    out = harness.act(s.conn, action, state.version, id_=step)
                    # The schema names the board's labels: it refuses "99" before the engine.
                    code = (
                        ErrorCode.BAD_MESSAGE
                        if reason == Reason.MALFORMED
                        else ErrorCode(reason.value)
                    )
                    message = only_error(out, s.conn, code, step)
                    assert message["code"] == code.value
                    assert snapshot(state) == before
                    reasons.add(reason.value)
        harness.play_one(conns, rng)
    assert state.phase == Phase.OVER
    # After the end every action is refused as game_over.
    before = snapshot(state)
    only_error(
        harness.act(conns[0], {"kind": "pass"}, state.version, id_=1),
        conns[0],
        ErrorCode.GAME_OVER,
        1,
    )
    assert snapshot(state) == before
    reasons.add("game_over")
    assert reasons == {reason.value for reason in Reason}


def test_fixed_refusals(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=8)
    state = harness.state("t")
    acting = seats_to_act(state)[0]
    waiting = next(s for s in seated if s.seat != acting)
    mover = next(s for s in seated if s.seat == acting)
    before = snapshot(state)
    only_error(
        harness.act(waiting.conn, {"kind": "pass"}, id_=1), waiting.conn, ErrorCode.NOT_YOUR_TURN, 1
    )
    refused = only_error(
        harness.act(mover.conn, {"kind": "move", "from": "TY", "to": "99", "pay": []}, id_=2),
        mover.conn,
        ErrorCode.BAD_MESSAGE,  # the schema knows the board's labels
        2,
    )
    assert "'99' is not a port of the board" in refused["message"]
    assert state.phase == Phase.EXPAND
    only_error(
        harness.act(mover.conn, {"kind": "keep", "cards": []}, id_=3),
        mover.conn,
        ErrorCode.WRONG_PHASE,
        3,
    )
    assert snapshot(state) == before


def phase_of(state: GameState) -> Phase:
    """The phase, read through a call (so that type checkers do not keep an old narrowing)."""
    return state.phase


def play_to_end(harness: Harness, conns: list[int], rng: random.Random, table: str) -> None:
    state = harness.state(table)
    for _ in range(MAX_STEPS):
        if state.phase == Phase.OVER:
            return
        harness.play_one(conns, rng)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("players", "seed"), [(4, 1), (3, 2)])
def test_a_full_game_of_random_play(harness: Harness, players: int, seed: int) -> None:
    seated = harness.join("game", players, seed=seed)
    watcher = harness.connect()
    harness.hello(watcher, "game", "W", spectate=True)
    conns = [s.conn for s in seated]
    play_to_end(harness, conns, random.Random(seed), "game")
    state = harness.state("game")
    for conn in [*conns, watcher]:
        final = harness.latest[conn]
        assert final["version"] == state.version
        assert final["view"]["phase"] == "over"
        assert final["prompt"] is None
        score = final["view"]["score"]
        assert score is not None and score["winners"]
        assert len(score["players"]) == players
    assert harness.prompted(conns) == []
    assert any(e["type"] == "game_end" for e in harness.latest[watcher]["events"])
    # Everyone at the table is told at once that it finished, with the seed revealed.
    assert state.score is not None
    winners = state.score["winners"]
    for conn in [*conns, watcher]:
        info = harness.latest_table[conn]
        assert info["finished"] is True and info["seed"] == seed and info["salt"]
        assert info["winners"] == winners  # (a lobby can say who won)
    # Every action was stored, in order; the table is finished.
    stored = harness.store.load_table("game")
    assert stored is not None and stored.finished
    assert len(stored.actions) == state.version
    assert "game" not in harness.store.table_names(unfinished_only=True)
    [info] = harness.list_tables(watcher)["tables"]
    assert info["finished"] is True and info["started"] is True
    assert info["winners"] == winners and winners


def test_updates_carry_every_seats_points_if_the_game_ended_now(harness: Harness) -> None:
    """The same for every seat and spectator (the board alone decides them); none once the
    score sheet is there."""
    seated = harness.join("game", 3, seed=5)
    watcher = harness.connect()
    harness.hello(watcher, "game", "W", spectate=True)
    conns = [s.conn for s in seated]
    rng = random.Random(5)
    state = harness.state("game")
    seen = set()
    while state.phase != Phase.OVER:
        harness.play_one(conns, rng)
        expected = [p["total"] for p in score_game(state)["players"]]
        if phase_of(state) != Phase.OVER:
            for conn in [*conns, watcher]:
                assert harness.latest[conn]["points"] == expected
            seen.add(tuple(expected))
    assert len(seen) > 5  # the points moved during the game
    for conn in [*conns, watcher]:
        assert "points" not in harness.latest[conn]
        assert harness.latest[conn]["view"]["score"] is not None


# Resuming and disconnecting ------------------------------------------------------------------


def test_resume_with_the_token(harness: Harness) -> None:
    seated = harness.join("t", 4, seed=4)
    rng = random.Random(4)
    for _ in range(6):
        harness.play_one([s.conn for s in seated], rng)
    gone = seated[2]
    out = harness.disconnect(gone.conn)
    for s in seated:
        if s is not gone:
            seats = first(out, s.conn, "table")["table"]["seats"]
            assert seats[2]["connected"] is False and seats[2]["bot"] is False
            assert all(seat["connected"] for i, seat in enumerate(seats) if i != 2)
    assert to(out, gone.conn) == []
    back = harness.connect()
    out = harness.send(back, {"type": "resume", "id": 77, "protocol": 1, "token": gone.token})
    messages = to(out, back)
    assert [m["type"] for m in messages] == ["welcome", "table", "update"]
    assert messages[0] == {
        "type": "welcome",
        "re": 77,
        "protocol": PROTOCOL_VERSION,
        "table": "t",
        "seat": 2,
        "name": "P2",
        "token": None,
    }
    assert messages[1]["table"]["seats"][2]["connected"] is True
    update = messages[2]
    state = harness.state("t")
    assert update["view"] == view(state, 2)
    assert update["view"]["hand"] is not None
    assert update["version"] == state.version
    assert update["events"], "a resync replays the recent events"
    for s in seated:
        if s is not gone:
            assert first(out, s.conn, "table")["table"]["seats"][2]["connected"] is True
    # The resumed connection plays on.
    conns = [s.conn for s in seated if s is not gone] + [back]
    harness.play_one(sorted(conns), rng)


def test_resume_with_a_wrong_token(harness: Harness) -> None:
    seated = harness.join("t", 3)
    conn = harness.connect()
    for id_, token in enumerate(["x" * 43, seated[0].token[:-1] + "?", "a"]):
        out = harness.send(conn, {"type": "resume", "id": id_, "protocol": 1, "token": token})
        only_error(out, conn, ErrorCode.BAD_TOKEN, id_)
    assert harness.session.conns[conn].table is None


def test_resume_takes_the_seat_from_another_connection(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=6)
    holder = seated[1]
    thief = harness.connect()
    out = harness.resume(thief, holder.token)
    closes = [item for item in out if isinstance(item, Close)]
    assert len(closes) == 1
    assert closes[0].conn == holder.conn and closes[0].code == 4000
    assert first(out, thief, "welcome")["seat"] == 1
    assert first(out, thief, "update")["view"]["viewer"] == 1
    assert to(out, holder.conn) == []  # the old connection is only closed
    # The old connection no longer holds anything.
    only_error(
        harness.act(holder.conn, {"kind": "pass"}, harness.state("t").version, id_=3),
        holder.conn,
        ErrorCode.HELLO_FIRST,
        3,
    )
    # Its disconnection does not mark the seat as absent.
    assert harness.disconnect(holder.conn) == []
    [info] = harness.list_tables(thief)["tables"]
    assert info["seats"][1]["connected"] is True
    assert harness.session.tables["t"].seats[1].conn == thief


def test_disconnect_before_the_start_and_the_game_still_starts(harness: Harness) -> None:
    a, b = harness.connect(), harness.connect()
    harness.hello(a, "t", "A", players=3, seed=1)
    token_b = first(harness.hello(b, "t", "B", players=3), b, "welcome")["token"]
    out = harness.disconnect(b)
    assert first(out, a, "table")["table"]["seats"][1]["connected"] is False
    c = harness.connect()
    out = harness.hello(c, "t", "C")
    assert first(out, c, "welcome")["seat"] == 2
    assert first(out, a, "update") and first(out, c, "update")
    back = harness.connect()
    out = harness.resume(back, token_b)
    assert first(out, back, "update")["view"]["viewer"] == 1


# Time: trade deadlines and takeovers -------------------------------------------------------


def play_until_proposal(
    harness: Harness, conns: list[int], rng: random.Random
) -> tuple[int, dict[str, Any], Output]:
    """Random play without trades until a seat may propose; then it proposes."""

    def no_trades(conn: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
        return rng.choice([a for a in legal if a["kind"] != "propose"])

    for _ in range(MAX_STEPS):
        [conn, *_] = harness.prompted(conns)
        legal = harness.latest[conn]["prompt"]["legal"]
        proposals = [a for a in legal if a["kind"] == "propose"]
        if proposals:
            proposal: dict[str, Any] = proposals[0]

            def propose(conn: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
                return proposal  # noqa: B023 - used at once, inside this iteration

            out = harness.play_one(conns, rng, propose)
            return conn, proposal, out
        harness.play_one(conns, rng, no_trades)
    raise AssertionError("nobody could propose")


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


# Abuse: rate limits, frames, malformed messages -------------------------------------------


def test_rate_limiter(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(limits=Limits(burst=5, per_second=1))
    conn = harness.connect()
    listing = json.dumps({"type": "list_tables", "id": 1})
    for _ in range(5):
        assert first(harness.receive(conn, listing), conn, "tables")
    only_error(harness.receive(conn, listing), conn, ErrorCode.RATE_LIMITED, None)
    only_error(harness.receive(conn, listing), conn, ErrorCode.RATE_LIMITED, None)
    harness.clock.advance(1.0)
    assert first(harness.receive(conn, listing), conn, "tables")
    only_error(harness.receive(conn, listing), conn, ErrorCode.RATE_LIMITED, None)
    # Another connection has its own allowance.
    other = harness.connect()
    assert first(harness.receive(other, listing), other, "tables")
    # A long pause refills the burst, no more.
    harness.clock.advance(3600)
    for _ in range(5):
        assert first(harness.receive(conn, listing), conn, "tables")
    only_error(harness.receive(conn, listing), conn, ErrorCode.RATE_LIMITED, None)


def test_binary_frames(harness: Harness) -> None:
    conn = harness.connect()
    frame = json.dumps({"type": "list_tables", "id": 1}).encode()
    only_error(harness.receive(conn, frame), conn, ErrorCode.BINARY_FRAME, None)


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "",
        "not json",
        '{"type": "list_tables",}',
        "[1,",
        "[" * 100_000 + "]" * 100_000,
        "NaN-ish",
        "\x00",
    ],
    ids=lambda text: f"{text[:12]!r}-{len(text)}",
)
def test_malformed_json(harness: Harness, text: str) -> None:
    conn = harness.connect()
    only_error(harness.receive(conn, text), conn, ErrorCode.BAD_JSON, None)


def test_a_key_given_twice_is_a_bad_message_not_the_last_value(harness: Harness) -> None:
    conn = harness.connect()
    text = '{"type":"action","id":3,"type":"chat","text":"hi"}'  # json.loads reads a chat
    error = only_error(harness.receive(conn, text), conn, ErrorCode.BAD_MESSAGE, None)
    assert error["message"] == "the key 'type' is given twice"


@pytest.mark.parametrize(
    ("message", "re_"),
    [
        ({"type": "action", "id": 7, "version": 1}, 7),
        ({"type": "nope", "id": 8}, 8),
        ({"type": "hello", "id": 9, "protocol": 1, "name": "A", "table": "bad name"}, 9),
        ({"type": "list_tables", "id": 10, "extra": True}, 10),
        (
            {
                "type": "action",
                "id": 11,
                "version": 0,
                "action": {"kind": "move", "from": "TY", "to": "1", "pay": ["green"] * 61},
            },
            11,
        ),
        ({"type": "action", "id": 0, "version": 0, "action": {"kind": "fly"}}, 0),
        (
            {
                "type": "action",
                "id": 3,
                "version": 0,
                "action": {"kind": "move", "from_": "TY", "to": "1", "pay": []},
            },
            3,
        ),
        ({"type": "action", "id": 2**53, "version": 0, "action": {}}, 2**53),
        ({"type": "nope", "id": -1}, None),
        ({"type": "nope", "id": 2**53 + 1}, None),
        ({"type": "nope", "id": "7"}, None),
        ({"type": "nope", "id": 7.0}, None),
        ({"type": "nope", "id": True}, None),
        ({"type": "nope"}, None),
        ([{"type": "list_tables", "id": 1}], None),
        ("list_tables", None),
        (None, None),
        (12, None),
    ],
    ids=lambda v: json.dumps(v)[:50],
)
def test_schema_failures(harness: Harness, message: Any, re_: int | None) -> None:
    conn = harness.connect()
    only_error(harness.send(conn, message), conn, ErrorCode.BAD_MESSAGE, re_)


def test_bad_message_from_a_seated_connection_changes_nothing(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=2)
    state = harness.state("t")
    before = snapshot(state)
    for s in seated:
        out = harness.send(
            s.conn,
            {
                "type": "action",
                "id": 5,
                "version": state.version,
                "action": {"kind": "pass", "x": 1},
            },
        )
        only_error(out, s.conn, ErrorCode.BAD_MESSAGE, 5)
        only_error(harness.receive(s.conn, b"\x00"), s.conn, ErrorCode.BINARY_FRAME, None)
        only_error(harness.receive(s.conn, "{"), s.conn, ErrorCode.BAD_JSON, None)
    assert snapshot(state) == before


def test_unknown_connections_are_ignored(harness: Harness) -> None:
    assert harness.receive(999, '{"type": "list_tables"}') == []
    assert harness.disconnect(999) == []


# Restarts and storage failures -------------------------------------------------------------


def test_a_restarted_session_resumes_every_unfinished_game(
    make_harness: Callable[..., Harness],
) -> None:
    first_run = make_harness()
    seated = first_run.join("crash", 4, seed=31, trade_seconds=20)
    waiting = first_run.connect()
    first_run.hello(waiting, "lobby", "Solo", players=3)
    conns = [s.conn for s in seated]
    rng = random.Random(31)
    for _ in range(60):
        first_run.play_one(conns, rng)
    old_state = first_run.state("crash")
    old_views = {seat: view(old_state, seat) for seat in (0, 1, 2, 3, None)}
    old_chance = chance_state(old_state)
    old_snapshot = snapshot(old_state)

    # A crash: a new session on the same file (the old one is simply abandoned).
    second_run = make_harness(clock=FakeClock(5.0))
    assert set(second_run.session.tables) == {"crash", "lobby"}
    state = second_run.state("crash")
    assert state.version == old_state.version == 60
    assert state.fingerprint() == old_state.fingerprint()
    assert chance_state(state) == old_chance
    assert snapshot(state) == old_snapshot
    for seat, seen in old_views.items():
        assert view(state, seat) == seen
    lobby = second_run.session.tables["lobby"]
    assert lobby.state is None and [slot.name for slot in lobby.seats] == ["Solo"]
    [info] = [
        t for t in second_run.list_tables(second_run.connect())["tables"] if t["name"] == "crash"
    ]
    assert info["started"] is True
    assert not any(seat["connected"] for seat in info["seats"])

    # Everyone resumes with the old tokens and sees the same game.
    new_conns = []
    for s in seated:
        conn = second_run.connect()
        out = second_run.resume(conn, s.token)
        assert first(out, conn, "welcome")["seat"] == s.seat
        update = first(out, conn, "update")
        assert update["view"] == old_views[s.seat]
        assert update["version"] == 60
        new_conns.append(conn)
    # The half-full table still fills and starts.
    for name in ("Two", "Three"):
        second_run.hello(second_run.connect(), "lobby", name)
    assert second_run.session.tables["lobby"].state is not None
    # And the game ends through the new session.
    play_to_end(second_run, new_conns, rng, "crash")
    stored = second_run.store.load_table("crash")
    assert stored is not None and stored.finished
    assert len(stored.actions) == state.version
    third = make_harness()
    assert "crash" not in third.session.tables


def test_a_restart_during_a_trade_restarts_its_deadline(
    make_harness: Callable[..., Harness],
) -> None:
    first_run = make_harness()
    seated = first_run.join("t", 3, seed=9, trade_seconds=30)
    _, proposal, _ = play_until_proposal(first_run, [s.conn for s in seated], random.Random(9))
    version = first_run.state("t").version
    clock = FakeClock(50.0)
    second_run = make_harness(clock=clock)
    state = second_run.state("t")
    assert state.phase == Phase.TRADE and state.version == version
    assert second_run.session.next_deadline() == pytest.approx(80.0)
    clock.advance(30)
    second_run.tick()
    assert state.version == version + len(proposal["to"])


def test_a_failing_store_leaves_the_state_unchanged(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    seated = harness.join("t", 3, seed=14)
    conns = [s.conn for s in seated]
    rng = random.Random(14)
    for _ in range(4):
        harness.play_one(conns, rng)
    state = harness.state("t")
    [conn, *_] = harness.prompted(conns)
    action = harness.latest[conn]["prompt"]["legal"][0]
    before = snapshot(state)
    stored_before = harness.store.load_table("t")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(harness.store, "append_action", refuse)
    only_error(harness.act(conn, action, state.version, id_=66), conn, ErrorCode.INTERNAL, 66)
    assert snapshot(state) == before
    assert harness.store.load_table("t") == stored_before
    monkeypatch.undo()
    # The store works again: the same action goes through.
    out = harness.act(conn, action, state.version, id_=67)
    assert first(out, conn, "accepted") == {
        "type": "accepted",
        "re": 67,
        "version": before[0][2] + 1,
    }


def test_a_failing_store_refuses_a_seat(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    a = harness.connect()
    harness.hello(a, "t", "A", players=3)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(harness.store, "add_seat", refuse)
    b = harness.connect()
    out = harness.send(b, {"type": "hello", "id": 4, "protocol": 1, "name": "B", "table": "t"})
    only_error(out, b, ErrorCode.INTERNAL, 4)
    assert len(harness.session.tables["t"].seats) == 1
    assert harness.session.conns[b].table is None


def test_a_connection_that_never_says_hello_is_closed_on_time(tmp_path: Path) -> None:
    clock = FakeClock()
    store = Store(str(tmp_path / "h.db"))
    session = Session(store, clock=clock, hello_seconds=30, wall_clock=lambda: 1234.0)
    try:
        session.connect(1, "127.0.0.1")
        clock.advance(10)
        session.connect(2, "127.0.0.1")
        assert session.next_deadline() == pytest.approx(clock.now - 10 + 30)
        session.receive(
            2,
            json.dumps(
                {"type": "hello", "id": 1, "protocol": 1, "name": "A", "table": "t", "players": 3}
            ),
        )
        session.data_to_send()
        clock.advance(19.9)
        session.tick()
        assert session.data_to_send() == []
        clock.advance(0.2)
        session.tick()
        assert session.data_to_send() == [Close(1, 1008, "say hello sooner")]
        session.tick()
        assert session.data_to_send() == []  # asked once
        assert session.next_deadline() is None  # the seated connection has no deadline
        stored = store.load_table("t")
        assert stored is not None
    finally:
        store.close()


def test_a_seed_is_refused_unless_the_server_allows_seeds(tmp_path: Path) -> None:
    """Whoever chooses the seed knows every hand: a shared server deals its own games."""
    store = Store(str(tmp_path / "s.db"))
    session = Session(store)
    try:
        session.connect(1, "127.0.0.1")
        hello = {"type": "hello", "id": 5, "protocol": 1, "name": "A", "table": "t", "players": 3}
        session.receive(1, json.dumps({**hello, "seed": 424242}))
        out = session.data_to_send()
        assert [
            (o.message["type"], o.message["code"], o.message["re"])
            for o in out
            if isinstance(o, Send)
        ] == [("error", "seed_not_allowed", 5)]
        assert "t" not in session.tables and store.load_table("t") is None
        session.receive(1, json.dumps(hello))
        welcome = session.data_to_send()
        assert any(isinstance(o, Send) and o.message["type"] == "welcome" for o in welcome)
        seeds = {session.tables["t"].options.seed for _ in range(1)}
        assert seeds != {424242}
    finally:
        store.close()


def test_the_seed_is_committed_at_the_start_and_revealed_at_the_end(harness: Harness) -> None:
    from tyros_server.fairness import seed_commitment

    seated = harness.join("fair", 3, seed=5)
    table = harness.session.tables["fair"]
    info = harness.session.outbox.table_info(table)
    assert info["commitment"] == seed_commitment(table.options.seed, table.salt)
    assert "seed" not in info and "salt" not in info and len(table.salt) == 32
    play_to_end(harness, [s.conn for s in seated], random.Random(4), "fair")
    revealed = harness.session.outbox.table_info(table)
    assert (revealed["seed"], revealed["salt"]) == (5, table.salt)
    assert seed_commitment(revealed["seed"], revealed["salt"]) == info["commitment"]


# Decisions taken at once --------------------------------------------------------------------


def test_simultaneous_answers_keep_their_prompt_and_an_overtaken_one_is_too_late(
    harness: Harness,
) -> None:
    """Two seats are asked: one answering does not spoil the other's prompt; the trade
    completed with the first ends the second's decision (too_late), and when the turn then
    passes to it, its prompt is a new one."""
    seated = harness.join("trade", 3, seed=21)
    conns = [s.conn for s in seated]
    rng = random.Random(21)

    def no_trades(conn: int, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        calm = [a for a in legal if a["kind"] not in ("propose", "bank_draw", "bank_pick")]
        return rng.choice(calm) if calm else None

    state = harness.state("trade")
    for _ in range(400):  # to a turn in the actions phase where a trade may be offered
        current = state.current
        prompt = harness.latest[conns[current]].get("prompt")
        offers = [a for a in (prompt or {}).get("legal", []) if a["kind"] == "propose"]
        if state.phase == Phase.ACTIONS and len(offers) > 0 and len(offers[0]["to"]) == 2:
            break
        harness.play_one(conns, rng, no_trades)
    else:
        raise AssertionError("no turn with a trade to offer")
    proposer = state.current
    later, other = (proposer + 1) % 3, (proposer + 2) % 3
    first(harness.act(conns[proposer], offers[0]), conns[proposer], "accepted")
    asked_at = state.version
    prompt_of = {seat: harness.latest[conns[seat]]["prompt"] for seat in (later, other)}
    assert all(p["id"] == asked_at for p in prompt_of.values())
    # The seat after the proposer waits; the other accepts; the waiting seat's prompt stays.
    accepted = harness.act(conns[other], {"kind": "answer", "accept": True}, asked_at)
    first(accepted, conns[other], "accepted")
    still = harness.latest[conns[later]]["prompt"]
    assert still["id"] == asked_at and still["version"] == asked_at + 1
    # The proposer completes with the accepter: the waiting seat's decision is over...
    done = harness.act(conns[proposer], {"kind": "complete", "with": other})
    first(done, conns[proposer], "accepted")
    # ...and its answer, made for the offer, is too late, whatever it says now.
    late = harness.act(conns[later], {"kind": "answer", "accept": False}, asked_at + 1, id_=77)
    only_error(late, conns[later], ErrorCode.TOO_LATE, 77)
    # The turn passed to it: that is a new decision, with a new prompt id.
    assert state.current == later
    assert harness.latest[conns[later]]["prompt"]["id"] == state.version
    # An action for the new prompt is taken.
    legal = harness.latest[conns[later]]["prompt"]["legal"]
    first(harness.act(conns[later], legal[0], state.version), conns[later], "accepted")


def test_a_completion_made_before_the_partner_answered_is_stale(harness: Harness) -> None:
    """The proposer's prompt stays while the answers come in; a `complete` sent for a
    version before the partner answered would take terms the proposer never saw (a
    counter-offer's): it is refused as stale, and taken once made after the answer."""
    seated = harness.join("t", 3, seed=7)
    conns = [s.conn for s in seated]
    state = harness.state("t")
    while state.phase != Phase.ACTIONS:
        [seat] = seats_to_act(state)
        harness.act(conns[seat], harness.latest[conns[seat]]["prompt"]["legal"][0])
    proposer = state.current
    offered = harness.act(
        conns[proposer],
        {
            "kind": "propose",
            "to": [s for s in range(3) if s != proposer],
            "give": ["orange"],
            "get": ["violet"],
        },
    )
    assert first(offered, conns[proposer], "accepted")
    before = state.version
    partner = next(s for s in range(3) if s != proposer)
    countered = harness.act(
        conns[partner], {"kind": "counter", "give": ["orange"], "get": ["green"]}
    )
    assert first(countered, conns[partner], "accepted")
    harness.clock.advance(0.1)
    late = harness.act(conns[proposer], {"kind": "complete", "with": partner}, version=before)
    assert isinstance(late[0], Send), late
    message = only_error(late, conns[proposer], ErrorCode.STALE_VERSION, late[0].message["re"])
    assert "answered at version" in message["message"]
    taken = harness.act(conns[proposer], {"kind": "complete", "with": partner})
    assert first(taken, conns[proposer], "accepted")
    done = [e for e in state.log or [] if e["type"] == "trade_completed"][-1]
    assert (done["give"], done["get"]) == (["orange"], ["green"])  # the counter's terms


def test_a_program_says_so_and_its_seat_shows_it_for_good(tmp_path: Path) -> None:
    """``hello`` with ``program: true`` (tyros-bot's): the seat's status says so to
    everyone, and so it does after a restart (it is stored with the seat)."""
    path = tmp_path / "p.db"
    harness = Harness(path)
    ann, bot = harness.connect(), harness.connect()
    harness.hello(ann, "t", "Ann", players=3)
    harness.hello(bot, "t", "bot-1", players=3, program=True)
    seats = harness.list_tables(ann)["tables"][0]["seats"]
    assert [s.get("program", False) for s in seats] == [False, True, False]
    harness.close()
    again = Harness(path)
    seats = again.list_tables(again.connect())["tables"][0]["seats"]
    assert seats[1]["program"] is True and "program" not in seats[0]
    again.close()


def test_nobody_joins_with_a_name_that_looks_like_a_seated_players(harness: Harness) -> None:
    """Talk and the log would read as the seated player's: refused for a new seat and for a
    spectator alike, each saying whose name it looks like; spectators may share names."""
    ann = harness.connect()
    harness.hello(ann, "t", "Ann", players=3)
    for name, spectate in (("ANN", False), ("\uff21nn", False), ("Ann", True), ("aNN", True)):
        conn = harness.connect()
        out = harness.hello(conn, "t", name, spectate=spectate)
        assert isinstance(out[0], Send), out
        message = only_error(out, conn, ErrorCode.NAME_TAKEN, out[0].message["re"])
        assert "seat A" in message["message"], message
    watchers = [harness.connect() for _ in range(2)]
    for watcher in watchers:
        assert first(harness.hello(watcher, "t", "Eve", spectate=True), watcher, "welcome")
    bob = harness.connect()
    assert first(harness.hello(bob, "t", "Bob"), bob, "welcome")["seat"] == 1
