"""The database's files removed, replaced, cut short or overwritten while the server runs:
SQLite writes on into them, and nobody else sees it or a crash or the next start finds them
lost or damaged. The server notices, refuses every action from then on, and copies what it
holds (every acknowledged action) to a safe file."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sqlite3
from pathlib import Path

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_server import guard
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
        assert refused["message"].startswith("the action was not stored")
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


def acknowledged(harness: Harness, conns: list[int], moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        harness.play_one(conns, rng)


def test_a_wal_cut_short_is_noticed_at_once(tmp_path: Path) -> None:
    harness = Harness(tmp_path / "c.db")
    try:
        played(harness, 10)
        wal = Path(f"{harness.store.path}-wal")
        assert harness.store.watch() is None  # (its size seen)
        size = wal.stat().st_size
        os.truncate(wal, 100)
        problem = harness.store.watch()
        assert problem == f"{wal} was cut short (from {size} bytes to 100)"
    finally:
        harness.close()


def test_a_wal_cut_then_written_on_is_noticed_and_the_rescue_holds_every_action(
    tmp_path: Path,
) -> None:
    """SQLite writes on past the cut (the file grows back, a hole of zeros under the new
    frames): its size alone would not tell; the frames' salts do."""
    harness = Harness(tmp_path / "h.db")
    try:
        conns = played(harness, 20)
        wal = Path(f"{harness.store.path}-wal")
        high = wal.stat().st_size
        os.truncate(wal, 100)
        acknowledged(harness, conns, 40, seed=5)  # acknowledged on top of the hole
        assert wal.stat().st_size > high
        problem = harness.store.watch()
        assert problem is not None and "lost frames 2 to" in problem, problem
        rescued = harness.store.break_off(f"the database's files were damaged ({problem})")
        [conn, *_] = harness.prompted(conns)
        action = harness.latest[conn]["prompt"]["legal"][0]
        harness.session.begin_batch()  # as the server takes frames
        harness.act(conn, action, id_=71)
        harness.session.end_batch()
        refused = only_error(harness.drained(), conn, ErrorCode.INTERNAL, 71)
        assert "the server stopped writing" in refused["message"]
        assert str(tmp_path) not in refused["message"]
        saved = Store(str(rescued), create=False).load_table("t")
        assert saved is not None and len(saved.actions) == harness.state("t").version == 60
    finally:
        harness.close()


@pytest.mark.parametrize("damage", ["header", "cut"])
def test_a_database_file_cut_short_or_with_its_header_overwritten_is_noticed(
    tmp_path: Path, damage: str
) -> None:
    harness = Harness(tmp_path / "d.db")
    try:
        played(harness, 10)
        path = Path(harness.store.path)
        checkpoint(path)
        assert harness.store.watch() is None
        if damage == "header":
            with path.open("r+b") as file:
                file.write(b"\0" * 100)
        else:
            os.truncate(path, path.stat().st_size - 4096)
        problem = harness.store.watch()
        expected = "had its header overwritten" if damage == "header" else "was cut short"
        assert problem is not None and expected in problem, problem
    finally:
        harness.close()


def checkpoint(path: Path) -> None:
    """Copy the WAL into the database file and let the next write start it again."""
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
    finally:
        db.close()


def test_nothing_is_said_of_files_written_only_by_sqlite(tmp_path: Path) -> None:
    """Checkpoints, the WAL started again from its beginning, a new database's header set:
    none of it is taken for damage."""
    harness = Harness(tmp_path / "n.db")
    try:
        seen = [harness.store.watch()]
        conns = played(harness, 5)
        path = Path(harness.store.path)
        for round_ in range(6):
            acknowledged(harness, conns, 15, seed=round_)
            seen.append(harness.store.watch())
            checkpoint(path)
            seen.append(harness.store.watch())
        assert seen == [None] * len(seen)
    finally:
        harness.close()


def wal_frames(path: Path) -> tuple[int, int]:
    """The frames in the WAL and those copied into the database (a passive checkpoint on a
    connection of its own copies what it can first)."""
    db = sqlite3.connect(path)
    try:
        _, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    finally:
        db.close()
    return frames, copied


def test_the_commits_leave_checkpoints_to_the_guard_which_makes_them_after_a_sound_look(
    tmp_path: Path,
) -> None:
    """SQLite's own checkpoint, made by the commit that takes the WAL past 1,000 pages, held
    up every action of that batch (and copied a hole cut in the WAL along): with a guard,
    the WAL grows past that until the guard has looked at the files, and then starts again."""
    harness = Harness(tmp_path / "c.db")
    try:
        watch = guard.DatabaseGuard(harness.store)
        wal = Path(f"{harness.store.path}-wal")
        page_frames = (wal.stat().st_size - 32) // (24 + 4096) if wal.exists() else 0
        for table in range(8):  # (each move a commit of a few pages)
            seated = harness.join(f"t{table}", 3, seed=table)
            rng = random.Random(table)
            for _ in range(100):
                harness.play_one([s.conn for s in seated], rng)
            page_frames = (wal.stat().st_size - 32) // (24 + 4096)
            if page_frames > 1_100:
                break
        assert page_frames > 1_100, "the WAL never grew past SQLite's own checkpoint"
        watch.look()
        frames, copied = wal_frames(Path(harness.store.path))
        assert frames == copied > 1_000  # one WAL, never started again, all of it copied
        acknowledged(harness, [s.conn for s in seated], 5, seed=1)
        frames, _ = wal_frames(Path(harness.store.path))
        assert frames < 100  # the next commit started the WAL again from its beginning
        assert harness.store.watch() is None
    finally:
        harness.close()


async def test_the_running_server_notices_a_cut_wal_within_its_watch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "WATCH_SECONDS", 0.01)
    db = tmp_path / "live.db"
    server = TyrosServer(ServerConfig(host="127.0.0.1", port=0, db=str(db)))
    await server.start()
    try:
        os.truncate(f"{db}-wal", 10)
        for _ in range(2000):  # until the watcher has looked (in its thread) and acted
            if server.store.broken is not None:
                break
            await asyncio.sleep(0.005)
        assert server.store.broken is not None and "was cut short" in server.store.broken
        assert list(tmp_path.glob("live.db.rescued-*"))
    finally:
        await server.stop()


async def test_a_stopping_server_looks_once_more_and_rescues_what_it_holds(
    tmp_path: Path,
) -> None:
    db = tmp_path / "last.db"
    server = TyrosServer(ServerConfig(host="127.0.0.1", port=0, db=str(db)))
    await server.start()
    try:
        os.truncate(f"{db}-wal", 10)
    finally:
        await server.stop()
    assert server.store.broken is not None and list(tmp_path.glob("last.db.rescued-*"))
