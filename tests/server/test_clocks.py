"""Game clocks through the session: free seconds per decision, a reserve, and the server
deciding (marked as the clock's decision) when both run out."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tyros_rules import Kind, Phase, legal_actions, replay, seats_to_act
from tyros_server import tools
from tyros_server.session import Limits

from .harness import Harness, first, first_legal, to

CLOCK = {"decision": 10, "reserve": 20}


def clocked(make: Callable[..., Harness], **kwargs: Any) -> tuple[Harness, list[Any]]:
    harness = make(takeover=first_legal, **kwargs)
    seated = harness.join("t", 3, seed=12, clock=CLOCK)
    return harness, seated


def seat_clock(update: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(c for c in update["clocks"] if c["seat"] == seat)


def test_a_table_with_a_clock_shows_every_seats_time(make_harness: Callable[..., Harness]) -> None:
    harness, seated = clocked(make_harness)
    info = harness.list_tables(seated[0].conn)["tables"][0]
    assert info["clock"] == CLOCK
    [acting] = seats_to_act(harness.state("t"))
    update = harness.latest[seated[0].conn]
    assert seat_clock(update, acting) == {"seat": acting, "reserve": 20.0, "left": 30.0}
    others = [c for c in update["clocks"] if c["seat"] != acting]
    assert all(c == {"seat": c["seat"], "reserve": 20.0, "left": None} for c in others)


def test_thinking_longer_than_the_free_seconds_spends_the_reserve(
    make_harness: Callable[..., Harness],
) -> None:
    harness, seated = clocked(make_harness)
    state = harness.state("t")
    [acting] = seats_to_act(state)
    harness.clock.advance(15)  # 10 free, 5 from the reserve
    out = harness.act(
        seated[acting].conn, harness.latest[seated[acting].conn]["prompt"]["legal"][0]
    )
    update = first(out, seated[0].conn, "update")
    assert seat_clock(update, acting)["reserve"] == 15.0
    assert harness.session.tables["t"].clocks.reserve[acting] == 15.0  # type: ignore[union-attr]
    stored = harness.store.load_table("t")
    assert stored is not None and stored.reserves == [15.0]


def test_when_the_time_runs_out_the_server_decides_and_says_so(
    make_harness: Callable[..., Harness],
) -> None:
    harness, seated = clocked(make_harness)
    state = harness.state("t")
    [acting] = seats_to_act(state)
    expected = legal_actions(state, acting)[0]
    deadline = harness.session.next_deadline()
    assert deadline == harness.clock.now + 30
    harness.clock.advance(29.9)
    assert harness.tick() == []
    harness.clock.advance(0.1)
    out = harness.tick()
    assert state.version == 1
    for s in seated:
        [update] = to(out, s.conn, "update")
        decided = update["events"][0]
        assert decided["type"] == "action" and decided["seat"] == acting
        assert decided["by"] == "clock"  # everyone sees who decided
        assert seat_clock(update, acting)["reserve"] == 0.0
    stored = harness.store.load_table("t")
    assert stored is not None and stored.decided_by == ["clock"]
    assert (
        tools.export_main(["--db", str(harness.path), "--out", str(harness.path) + ".json", "t"])
        == 0
    )
    record = json.loads(Path(str(harness.path) + ".json").read_text())
    assert record["decided_by"] == [{"version": 1, "seat": acting, "by": "clock"}]
    replay(record)  # the record itself is unchanged: it replays
    assert stored.actions[0][1]["kind"] == Kind(expected[0]).name.lower()
    # The next decisions of that seat get their free seconds, and no reserve.
    while acting not in seats_to_act(state):
        harness.clock.advance(1)
        [nxt] = seats_to_act(state)
        harness.act(seated[nxt].conn, harness.latest[seated[nxt].conn]["prompt"]["legal"][0])
    assert harness.session.next_deadline() == harness.clock.now + 10


def test_a_proposers_clock_waits_while_the_asked_seats_answer(
    make_harness: Callable[..., Harness],
) -> None:
    harness, seated = clocked(make_harness)
    state = harness.state("t")
    conns = [s.conn for s in seated]
    for _ in range(50):  # the expansions, quickly
        if state.phase == Phase.ACTIONS:
            break
        [seat] = seats_to_act(state)
        harness.act(conns[seat], harness.latest[conns[seat]]["prompt"]["legal"][0])
    assert state.phase == Phase.ACTIONS
    proposer = state.current
    offer = next(
        a for a in harness.latest[conns[proposer]]["prompt"]["legal"] if a["kind"] == "propose"
    )
    harness.act(conns[proposer], offer)
    clocks = harness.session.tables["t"].clocks
    assert clocks is not None
    assert proposer not in clocks.since  # waiting for answers is not thinking
    asked = sorted(set(offer["to"]))
    assert set(asked) <= set(clocks.since)
    for seat in asked:
        harness.clock.advance(1)
        harness.act(conns[seat], {"kind": "answer", "accept": False})
    assert proposer in clocks.since  # every answer is in: the proposer decides now


def test_the_reserves_survive_a_restart(make_harness: Callable[..., Harness]) -> None:
    harness, seated = clocked(make_harness)
    state = harness.state("t")
    [acting] = seats_to_act(state)
    harness.clock.advance(22)  # 12 s from the reserve
    harness.act(seated[acting].conn, harness.latest[seated[acting].conn]["prompt"]["legal"][0])
    harness.close()
    again = make_harness(takeover=first_legal)
    conn = again.connect()
    out = again.resume(conn, seated[acting].token)
    update = first(out, conn, "update")
    assert seat_clock(update, acting)["reserve"] == 8.0
    assert again.list_tables(conn)["tables"][0]["clock"] == CLOCK
    # The decision being made when the server stopped has its free seconds again (the
    # time it was down is nobody's), on top of what its seat's reserve kept.
    [deciding] = seats_to_act(again.state("t"))
    assert seat_clock(update, deciding)["left"] == 10 + seat_clock(update, deciding)["reserve"]


def test_a_servers_default_clock_and_a_table_without_one(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness(takeover=first_legal, limits=Limits(default_clock=(15, 60)))
    seated = harness.join("t", 3, seed=12)
    assert harness.list_tables(seated[0].conn)["tables"][0]["clock"] == {
        "decision": 15,
        "reserve": 60,
    }
    plain = make_harness(takeover=first_legal)
    seated = plain.join("u", 3, seed=12)
    tables = {info["name"]: info for info in plain.list_tables(seated[0].conn)["tables"]}
    assert "clock" not in tables["u"]  # (the same database: "t" is there too, with its clock)
    assert tables["t"]["clock"] == {"decision": 15, "reserve": 60}
    assert "clocks" not in plain.latest[seated[0].conn]
    assert plain.session.tables["u"].clocks is None


def test_a_clocks_decision_never_opens_a_negotiation(make_harness: Callable[..., Harness]) -> None:
    """A player whose time runs out is there, only slow: the server's decision for them
    makes no trade offer (it would go public and ask them for another decision at once)
    and no counter-offer, whatever the takeover bot would like; it passes or declines."""
    from tyros_protocol.cards import counts_from_names
    from tyros_rules.actions import K_COUNTER, propose
    from tyros_rules.payments import ONE

    def eager(table: str, seat: int, seen: dict[str, Any], legal: list[Any]) -> Any:
        hand = counts_from_names(seen.get("hand") or [])
        held = next((card for card in range(5) if hand[card]), None)
        if held is not None and seen["phase"] == "actions":
            return propose(0b111 & ~(1 << seat), ONE[held], ONE[(held + 1) % 5])
        if held is not None and seen["phase"] == "trade":
            return (K_COUNTER, *ONE[(held + 1) % 5], *ONE[held])
        return legal[0]

    harness = make_harness(takeover=eager)
    seated = harness.join("t", 3, seed=12, clock=CLOCK)
    state = harness.state("t")
    while state.phase != Phase.ACTIONS:  # the expansions, played by hand
        harness.clock.advance(1)
        [nxt] = seats_to_act(state)
        harness.act(seated[nxt].conn, harness.latest[seated[nxt].conn]["prompt"]["legal"][0])
    start = state.version
    for _ in range(6):  # six decisions in a row left to the clock
        harness.clock.advance(40)  # past 10 free seconds and the 20 of reserve
        harness.tick()
    stored = harness.store.load_table("t")
    clocked_out = (
        stored.decided_by[start:] if stored is not None and stored.decided_by is not None else []
    )
    assert len(clocked_out) >= 6 and set(clocked_out) == {"clock"}
    kinds = [action["kind"] for _, action in stored.actions[start:]] if stored else []
    assert "propose" not in kinds and "counter" not in kinds
    assert "pass" in kinds
