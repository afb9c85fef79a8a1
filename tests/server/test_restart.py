"""Restarts: a server stopped (or killed) mid-game resumes it from its database.

The bots are the ordinary ``tyros-bot`` client, which reconnects with its token
and backs off while the server is away. Every frame they send and receive is
recorded (:class:`~.conftest.Tap`), so the test can hold the server to its
promise: every acknowledged action is in the database exactly once, nothing
the bots did not send is there, and the stored actions replay to the game the
bots saw end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tyros_protocol.board import BOARD
from tyros_rules import (
    GameState,
    Options,
    Phase,
    action_to_json,
    new_game,
    parse_action,
    push,
    seats_to_act,
)

from .conftest import (
    HOST,
    STEP_TIMEOUT,
    ServerFactory,
    Tap,
    bot_runs,
    cancel_all,
    finish,
    free_port,
    start_bots,
    url_of,
    wait_for,
)

TABLE = "restarted"


def canonical(action: dict[str, Any]) -> str:
    """One spelling per action (the server stores its own re-encoding of what it got)."""
    return json.dumps(action_to_json(parse_action(action, BOARD), BOARD), sort_keys=True)


def stored_rows(db: Path, table: str) -> tuple[dict[str, Any], list[tuple[int, int, str]]]:
    """(options, [(seq, seat, action JSON)] in seq order) straight from the SQLite file."""
    conn = sqlite3.connect(db)
    try:
        (options,) = conn.execute("SELECT options FROM tables WHERE name = ?", (table,)).fetchone()
        rows = conn.execute(
            "SELECT seq, seat, action FROM actions WHERE table_name = ? ORDER BY seq", (table,)
        ).fetchall()
    finally:
        conn.close()
    return json.loads(options), [(seq, seat, text) for seq, seat, text in rows]


def count_actions(db: Path) -> int:
    if not db.exists():
        return 0
    conn = sqlite3.connect(db, timeout=5)
    try:
        return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0
    finally:
        conn.close()


def to_act_by_version(options: dict[str, Any], rows: list[tuple[int, int, str]]) -> list[set[int]]:
    """For each version of the game, the seats that had something to decide."""
    state = new_game(Options(**options))
    deciding = [set(seats_to_act(state))]
    for _, seat, text in rows:
        push(state, seat, parse_action(json.loads(text), BOARD))
        deciding.append(set(seats_to_act(state)))
    return deciding


def replay_rows(options: dict[str, Any], rows: list[tuple[int, int, str]]) -> GameState:
    state = new_game(Options(**options))
    for _, seat, text in rows:
        push(state, seat, parse_action(json.loads(text), BOARD))
    return state


def check_nothing_lost_nothing_doubled(
    db: Path, tap: Tap, table: str, scores: list[dict[str, Any]]
) -> int:
    """Hold the database to what the clients were told; returns how many acks were checked."""
    options, rows = stored_rows(db, table)
    seqs = [seq for seq, _, _ in rows]
    assert seqs == list(range(1, len(rows) + 1)), "actions are numbered 1..n without gaps"
    by_seq = {seq: (seat, canonical(json.loads(text))) for seq, seat, text in rows}

    acknowledged = 0
    sent_for: dict[int, set[tuple[int, str]]] = {}
    for traffic in tap.connections:
        seat = traffic.seat
        if seat is None:
            continue
        sent = {m["id"]: m for m in traffic.sent if m.get("type") == "action"}
        for m in sent.values():
            sent_for.setdefault(seat, set()).add((m["version"], canonical(m["action"])))
        for ack in traffic.of_type("accepted"):
            message = sent[ack["re"]]
            # Taken at the version it was made for, or later if the seat's prompt stayed.
            assert ack["version"] >= message["version"] + 1, (ack, message)
            assert by_seq.get(ack["version"]) == (seat, canonical(message["action"])), (
                f"acknowledged action {message} of seat {seat} is not stored as "
                f"action {ack['version']}"
            )
            acknowledged += 1
        for error in traffic.of_type("error"):
            # Timing only, nothing changed: a copy or an outrun rate limit, or an answer
            # that another seat's completion overtook (as often as the bots race).
            assert error["code"] in ("stale_version", "rate_limited", "too_late"), error
    # Every stored action is one its seat sent, for the version before it or for an
    # earlier one from which the seat was deciding, without acting, until it was taken.
    to_act = to_act_by_version(options, rows)
    actors = {seq: seat for seq, seat, _ in rows}
    for seq, (seat, action) in by_seq.items():
        made_for = [
            version
            for version, sent_action in sent_for.get(seat, set())
            if sent_action == action and version <= seq - 1
        ]
        assert any(
            all(seat in to_act[v] for v in range(version, seq))
            and all(actors[v] != seat for v in range(version + 1, seq))
            for version in made_for
        ), f"stored action {seq} ({action}) of seat {seat} was never sent for its decision"

    state = replay_rows(options, rows)
    assert state.phase == Phase.OVER
    assert all(score == scores[0] for score in scores)
    assert state.score == scores[0]
    return acknowledged


# A graceful restart --------------------------------------------------------------------


async def test_a_stopped_server_resumes_the_game_and_the_bots_finish_it(
    make_server: ServerFactory, db_path: Path, tap: Tap
) -> None:
    first = await make_server()
    port = first.port
    bots = start_bots(bot_runs(url_of(first), TABLE, 4, seed=61), 61)
    try:

        def far_enough() -> bool:
            table = first.session.tables.get(TABLE)
            return table is not None and table.state is not None and table.state.version >= 60

        await wait_for(far_enough, what="the game to get going")
        open_then = [t for t in tap.connections if t.close_code is None]
        assert len(open_then) == 4
        await first.stop()
        state = first.session.tables[TABLE].state
        assert state is not None and state.phase != Phase.OVER
        stopped_at = state.fingerprint()
        await wait_for(
            lambda: all(t.close_code is not None for t in open_then),
            STEP_TIMEOUT,
            "the bots to see the server go",
        )

        second = await make_server(port=port)
        resumed = second.session.tables[TABLE].state
        assert resumed is not None and resumed.version >= state.version
        scores = await finish(bots)
    finally:
        await cancel_all(bots)

    # Each bot was told the server was going away, then came back with its token.
    assert [t.close_code for t in open_then] == [1001] * 4
    resumes = [t for t in tap.connections if t.sent and t.sent[0]["type"] == "resume"]
    assert sorted(t.seat for t in resumes if t.seat is not None) == [0, 1, 2, 3], [
        (t.sent[0]["type"] if t.sent else None, t.seat, t.close_code) for t in tap.connections
    ]
    # Every connection began by joining (nothing meant for the old one went first).
    assert all(t.sent[0]["type"] in ("hello", "resume") for t in tap.connections if t.sent)
    for traffic in resumes:
        welcome, table_msg, resync = traffic.received[:3]
        assert (welcome["type"], welcome["token"]) == ("welcome", None)
        assert table_msg["type"] == "table" and resync["type"] == "update"
        assert resync["view"]["viewer"] == traffic.seat and "hand" in resync["view"]
    options, rows = stored_rows(db_path, TABLE)
    assert replay_rows(options, rows[: state.version]).fingerprint() == stopped_at
    assert check_nothing_lost_nothing_doubled(db_path, tap, TABLE, scores) > 0
    assert second.session.tables[TABLE].finished


# A killed server ---------------------------------------------------------------------------


class ServerProcess:
    """``python -m tyros_server.cli`` on a loopback port, killable at will."""

    def __init__(self, db: Path, port: int, log: Path) -> None:
        self.db, self.port, self.log = db, port, log
        self.procs: list[subprocess.Popen[bytes]] = []

    @property
    def proc(self) -> subprocess.Popen[bytes]:
        return self.procs[-1]

    async def start(self) -> None:
        with self.log.open("ab") as err:
            self.procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "tyros_server.cli",
                        "--allow-seed",
                        "--host",
                        HOST,
                        "--port",
                        str(self.port),
                        "--db",
                        str(self.db),
                        "--log-level",
                        "WARNING",
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                )
            )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while loop.time() < deadline:
            assert self.proc.poll() is None, f"the server exited: {self.errors()}"
            try:
                _, writer = await asyncio.wait_for(asyncio.open_connection(HOST, self.port), 1)
            except (OSError, TimeoutError):
                await asyncio.sleep(0.05)
                continue
            writer.close()
            return
        raise AssertionError(f"the server did not listen in time: {self.errors()}")

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(STEP_TIMEOUT)

    def terminate(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(STEP_TIMEOUT)

    def cleanup(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(STEP_TIMEOUT)

    def errors(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""


@pytest.fixture
def server_process(db_dir: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(db_dir / "killed.db", free_port(), db_dir / "server.log")
    try:
        yield process
    finally:
        process.cleanup()


async def test_a_killed_server_loses_no_acknowledged_action(
    server_process: ServerProcess, tap: Tap
) -> None:
    db = server_process.db
    await server_process.start()
    bots = start_bots(bot_runs(f"ws://{HOST}:{server_process.port}", TABLE, 4, seed=71), 71)
    try:
        await wait_for(lambda: count_actions(db) >= 50, what="50 stored actions")
        server_process.kill()  # no shutdown code runs
        assert server_process.proc.returncode == -signal.SIGKILL
        at_kill = count_actions(db)
        acked_before = sum(len(t.of_type("accepted")) for t in tap.connections)
        assert acked_before > 0
        _, rows = stored_rows(db, TABLE)
        assert len(rows) == at_kill

        await server_process.start()
        scores = await finish(bots)
    finally:
        await cancel_all(bots)
    assert server_process.terminate() == 0, server_process.errors()

    assert count_actions(db) > at_kill
    assert check_nothing_lost_nothing_doubled(db, tap, TABLE, scores) > acked_before
    assert "Traceback" not in server_process.errors()
