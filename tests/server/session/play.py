"""Playing a session's table on, for the session's tests."""

from __future__ import annotations

import random
from typing import Any

from tyros_rules import Phase
from tyros_rules.state import GameState
from tyros_server.session import Output

from ..harness import MAX_STEPS, Harness


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
