"""Pages overwritten in the middle of the database file while the server runs: the file
keeps its size and header, so only reading the pages shows it. The page check (SQLite's
quick check on a connection of its own) finds it; the server then refuses every action and
rescues what it holds, and the repair at the next start gives back every acknowledged
action."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_server import guard
from tyros_server.app import ServerConfig, TyrosServer
from tyros_server.backups import backup
from tyros_server.session import Limits
from tyros_server.storage_files import PageCheck

from .harness import Harness, only_error
from .test_wal_damage import NAMES, every_game_back, overwrite, play
from .test_watched_files import checkpoint

PAGE = 4096


def middle_page(path: Path) -> int:
    """The offset of a page half-way through the database file (never its first)."""
    return max(PAGE, path.stat().st_size // 2 // PAGE * PAGE)


def test_pages_overwritten_in_the_middle_are_found_and_every_action_comes_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "p.db"
    harness = Harness(path, limits=Limits(tables_per_minute=50))
    pages = PageCheck(str(path))
    try:
        backup(str(path))  # as a server does at start: no table yet
        games = {name: harness.join(name, 3, seed=seed) for seed, name in enumerate(NAMES)}
        play(harness, games, 30, seed=1)
        checkpoint(path)  # the games' pages in the database file, not only in the WAL
        assert harness.store.watch() is None and pages.look() is None
        overwrite(path, middle_page(path), 2 * PAGE)
        assert harness.store.watch() is None  # the files alone do not tell
        problem = pages.look()
        assert problem is not None and "has damaged pages" in problem, problem
        harness.store.break_off(f"the database's files were damaged ({problem})")
        acknowledged = {name: harness.state(name).version for name in NAMES}
        assert acknowledged == {"a": 30, "b": 30, "c": 30}
        conns = [seated.conn for seated in games["a"]]
        [conn, *_] = harness.prompted(conns)
        action = harness.latest[conn]["prompt"]["legal"][0]
        refused = only_error(harness.act(conn, action, id_=9), conn, ErrorCode.INTERNAL, 9)
        assert "everything acknowledged so far is kept" in refused["message"]
        assert harness.state("a").version == 30
    finally:
        harness.close()
    every_game_back(
        path, caplog, "read the server's rescued copies too", acknowledged, games["a"][0]
    )


def damage_pages(db: Path) -> None:
    checkpoint(db)
    overwrite(db, PAGE, 2 * PAGE)  # the schema's own pages: every read stops there


async def test_the_server_checks_its_pages_when_asked_and_says_so_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "s.db"
    server = TyrosServer(ServerConfig(host="127.0.0.1", port=0, db=str(db)))
    await server.start()
    try:
        server.check_database_pages()
        assert server.store.broken is None
        damage_pages(db)
        caplog.set_level(logging.ERROR, logger="tyros.server")
        server.check_database_pages()
        server.check_database_pages()  # said once
        lines = [r.getMessage() for r in caplog.records if r.name == "tyros.server"]
        assert len(lines) == 1 and "has damaged pages" in lines[0], lines
        assert f"tyros-server restore --db {db} --from {db}.rescued-" in lines[0]
        assert server.store.refusal is not None
    finally:
        await server.stop()


async def test_the_running_server_checks_its_pages_in_a_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "PAGES_SECONDS", 0.01)
    db = tmp_path / "live.db"
    server = TyrosServer(ServerConfig(host="127.0.0.1", port=0, db=str(db)))
    await server.start()
    try:
        damage_pages(db)
        for _ in range(2000):  # until the check has run (in its thread) and acted
            if server.store.broken is not None:
                break
            await asyncio.sleep(0.005)
        assert server.store.broken is not None and "has damaged pages" in server.store.broken
        assert list(tmp_path.glob("live.db.rescued-*"))
    finally:
        await server.stop()
