"""The sans-I/O session. Decisions taken at once: simultaneous answers, and a completion made
before the partner answered.
"""

from __future__ import annotations

import random
from typing import Any

from tyros_protocol.errors import ErrorCode
from tyros_rules import (
    Phase,
    seats_to_act,
)
from tyros_server.session import Send

from ..harness import (
    Harness,
    first,
    only_error,
)


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
