"""``get_record`` and ``hint`` at the session: who gets which record, and which decisions
are marked as made after a hint."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_rules import (
    Phase,
    action_to_json,
    legal_actions,
    public_views,
    running_points,
    seats_to_act,
    view,
)
from tyros_server.session import Limits, Send

from .harness import Harness, first, only_error


def get_record(
    harness: Harness, conn: int, table: str, id_: int = 5, **options: Any
) -> dict[str, Any]:
    harness.clock.advance(1.5)  # one record a second per connection
    out = harness.send(conn, {"type": "get_record", "id": id_, "table": table, **options})
    (reply,) = [i for i in out if i.conn == conn]
    assert isinstance(reply, Send), reply  # a reply, not a close
    message = reply.message
    assert message["re"] == id_
    return message


def play_first_legal(harness: Harness, table: str, seated: list[Any], moves: int) -> None:
    for _ in range(moves):
        state = harness.state(table)
        seat = state.current if state.phase != Phase.TRADE else None
        if seat is None:
            return
        action = legal_actions(state, seat)[0]
        harness.act(seated[seat].conn, action_to_json(action, BOARD))


def test_a_record_is_asked_before_hello_and_only_of_a_game_that_started(
    harness: Harness,
) -> None:
    asker = harness.connect()
    assert get_record(harness, asker, "nobody")["code"] == ErrorCode.NO_SUCH_TABLE
    waiting = harness.connect()
    harness.hello(waiting, "w", "Ann", players=3)
    assert get_record(harness, asker, "w")["code"] == ErrorCode.NOT_FINISHED


def test_a_game_not_over_is_recorded_as_a_spectator_saw_it(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=4)
    play_first_legal(harness, "t", seated, 6)
    state = harness.state("t")
    message = get_record(harness, harness.connect(), "t")
    assert message["type"] == "record"
    record = message["record"]
    assert record["format"] == "tyros-public-replay/1" and "options" not in record
    views = public_views(record)
    assert len(views) == state.version + 1 and views[-1] == view(state, None)
    assert all("hand" not in v for v in views)  # a spectator's view holds no hand
    assert len(record["points"]) == len(views) and record["points"][-1] == running_points(state)


def test_a_finished_games_record_is_the_full_one_though_a_spectator_asked_before(
    harness: Harness,
) -> None:
    """A record asked for while the game ran is a spectator's; once the game is over the
    same table answers with the full record (every hand), not the spectator's cached."""
    seated = harness.join("t", 3, seed=4)
    asker = harness.connect()
    play_first_legal(harness, "t", seated, 3)
    assert get_record(harness, asker, "t")["record"]["format"] == "tyros-public-replay/1"
    state = harness.state("t")
    while state.phase != Phase.OVER:
        [seat, *_] = seats_to_act(state)
        harness.act(seated[seat].conn, action_to_json(legal_actions(state, seat)[0], BOARD))
    for id_ in (6, 7):  # made once, then from the cache: full both times
        record = get_record(harness, asker, "t", id_)["record"]
        assert record["format"] == "tyros-record/1" and record["finished"]
        assert record["options"]["seed"] == 4


def test_a_finished_game_as_a_spectator_saw_it_for_a_client_without_an_engine(
    make_harness: Callable[..., Harness],
) -> None:
    """``public``: the views after each decision, from memory or, once the finished table
    has left it, from the store; the same either way, and never a hand."""
    harness = make_harness(limits=Limits(finished_in_memory=0))
    seated = harness.join("t", 3, seed=4)
    state = harness.state("t")
    while state.phase != Phase.OVER:
        [seat, *_] = seats_to_act(state)
        harness.act(seated[seat].conn, action_to_json(legal_actions(state, seat)[0], BOARD))
    asker = harness.connect()
    record = get_record(harness, asker, "t", public=True)["record"]
    assert record["format"] == "tyros-public-replay/1" and record["finished"]
    views = public_views(record)
    assert len(views) == state.version + 1 and views[-1] == view(state, None)
    assert views[-1]["score"] == state.score and all("hand" not in v for v in views)
    assert state.score is not None and len(record["points"]) == len(views)
    assert record["points"][-1] == [p["total"] for p in state.score["players"]]
    assert record["points"][0] == [0, 0, 0]  # after the deal: nothing built yet
    assert [p["name"] for p in record["players"]] == ["P0", "P1", "P2"]
    for s in seated:
        harness.disconnect(s.conn)
    harness.disconnect(asker)
    harness.clock.advance(1.0)
    harness.tick()
    asker = harness.connect()
    assert "t" not in harness.session.tables  # gone from memory: the store answers
    assert get_record(harness, asker, "t", 6, public=True)["record"] == record
    unknown = get_record(harness, asker, "nobody", 7, public=True)
    assert unknown["type"] == "error" and unknown["code"] == "no_such_table"


def test_records_are_rate_limited_per_connection(harness: Harness) -> None:
    harness.join("t", 3, seed=4)
    asker = harness.connect()
    assert get_record(harness, asker, "t")["type"] == "record"
    out = harness.send(asker, {"type": "get_record", "id": 6, "table": "t"})  # at once
    only_error(out, asker, ErrorCode.RATE_LIMITED, 6)


def test_a_decision_after_a_hint_is_marked_and_others_are_not(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=4)
    state = harness.state("t")
    seat = state.current
    conn = seated[seat].conn
    assert harness.send(conn, {"type": "hint", "id": 3, "version": state.version}) == []
    play_first_legal(harness, "t", seated, 1)
    after = harness.state("t")
    other = seated[after.current].conn
    harness.send(other, {"type": "hint", "id": 4, "version": after.version - 1})  # stale
    play_first_legal(harness, "t", seated, 1)
    watcher = harness.connect()
    harness.hello(watcher, "t", "Zed", spectate=True)
    assert harness.send(watcher, {"type": "hint", "id": 5, "version": 2}) == []
    stored = harness.store.load_table("t")
    assert stored is not None and stored.hinted == [True, False]
    message = get_record(harness, harness.connect(), "t")
    assert message["type"] == "record"  # (not over: no hints in a spectator's record)


def test_hints_are_refused_at_a_table_created_without_them(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=4, hints=False)
    info = first(
        harness.send(seated[0].conn, {"type": "list_tables", "id": 2}), seated[0].conn, "tables"
    )
    assert info["tables"][0]["hints"] is False
    out = harness.send(seated[0].conn, {"type": "hint", "id": 8, "version": 0})
    only_error(out, seated[0].conn, ErrorCode.HINTS_OFF, 8)
    stored = harness.store.load_table("t")
    assert stored is not None and stored.hints is False


def test_export_lists_the_stored_tables_finished_or_not_with_their_dates(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    """A player who wants a finished game's record finds its table's name here."""
    from tyros_server import tools

    seated = harness.join("done", 3, seed=4)
    state = harness.state("done")
    while state.phase != Phase.OVER:
        [seat, *_] = seats_to_act(state)
        harness.act(seated[seat].conn, action_to_json(legal_actions(state, seat)[0], BOARD))
    harness.hello(harness.connect(), "waiting", "Ann", players=3)
    assert tools.export_main(["--db", str(harness.path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["done", "waiting"]
    assert lines[0].endswith(f"finished, {state.version} actions played")
    assert lines[1].endswith("not finished, 0 actions played")
    assert all(" created 1970-" not in line and " created " in line for line in lines)
