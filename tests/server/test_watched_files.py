"""The database's files removed or replaced while the server runs: SQLite writes on into
the open files, which nobody else sees and a crash loses. The server notices, refuses every
action from then on, and copies what it holds (every acknowledged action) to a safe file."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_server.app import ServerConfig, TyrosServer
from tyros_server.storage import Store

from .harness import Harness, only_error


def played(harness: Harness, moves: int) -> list[int]:
    """A 3-player table with ``moves`` actions acknowledged; the connections by seat."""
    seated = harness.join("t", 3, seed=21)
    conns = [s.conn for s in seated]
    rng = random.Random(21)
    for _ in range(moves):
        harness.play_one(conns, rng)
    return conns


@pytest.mark.parametrize("removed", [("-wal", "-shm"), ("",)])
def test_removed_files_stop_the_actions_and_nothing_acknowledged_is_lost(
    tmp_path: Path, removed: tuple[str, ...]
) -> None:
    harness = Harness(tmp_path / "w.db")
    try:
        conns = played(harness, 20)
        store = harness.store
        assert store.watch() is None  # where it opened them
        for suffix in removed:
            Path(f"{store.path}{suffix}").unlink()
        problem = store.watch()
        assert problem is not None and "was removed" in problem
        rescued = store.break_off(f"the database's files were moved away ({problem})")
        [conn, *_] = harness.prompted(conns)
        action = harness.latest[conn]["prompt"]["legal"][0]
        version = harness.state("t").version
        refused = only_error(harness.act(conn, action, id_=70), conn, ErrorCode.INTERNAL, 70)
        assert refused["message"] == "the action was not stored"
        assert harness.state("t").version == version  # not played, not acknowledged
        saved = Store(str(rescued), create=False).load_table("t")
        assert saved is not None and len(saved.actions) == version == 20
    finally:
        harness.close()


def test_a_replaced_database_file_is_noticed(tmp_path: Path) -> None:
    harness = Harness(tmp_path / "r.db")
    try:
        played(harness, 4)
        path = Path(harness.store.path)
        path.rename(tmp_path / "moved.db")
        path.write_bytes((tmp_path / "moved.db").read_bytes())  # a copy in its place
        assert "was replaced by another file" in (harness.store.watch() or "")
    finally:
        harness.close()


async def test_the_server_says_so_in_one_line_and_refuses_actions(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "s.db"
    server = TyrosServer(ServerConfig(host="127.0.0.1", port=0, db=str(db)))
    await server.start()
    try:
        server.watch_database()
        assert server.store.broken is None
        Path(f"{db}-wal").unlink()
        caplog.set_level(logging.ERROR, logger="tyros.server")
        server.watch_database()
        server.watch_database()  # said once
        lines = [r.getMessage() for r in caplog.records if r.name == "tyros.server"]
        assert len(lines) == 1 and "was removed" in lines[0]
        assert f"tyros-server restore --db {db} --from {db}.rescued-" in lines[0]
        assert server.store.broken is not None
        assert list(tmp_path.glob("s.db.rescued-*"))
    finally:
        await server.stop()
