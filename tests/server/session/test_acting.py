"""The sans-I/O session. Acting: stale versions, illegal actions mapped to error codes that
change nothing, whole games of random play.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_rules import (
    IllegalActionError,
    Phase,
    Reason,
    check_action,
    parse_action,
    score_game,
    seats_to_act,
)
from tyros_rules.state import GameState

from ..harness import (
    MAX_STEPS,
    Harness,
    first,
    only_error,
    snapshot,
)
from .play import phase_of, play_to_end


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
