"""Start-up that never loses or hides a game: bad databases refused in one line, owner-only
files, one server per database, backups and restore, quarantined tables, digests."""

from __future__ import annotations

import json
import os
import random
import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_rules import RULES_VERSION
from tyros_server import cli
from tyros_server.app import ServerConfig, TyrosServer
from tyros_server.backups import DatabaseLock, backup, backup_paths, restore
from tyros_server.database import APPLICATION_ID
from tyros_server.session import Limits, Send
from tyros_server.session import lobby as lobby_module
from tyros_server.storage import Store, StoreOpenError

from .harness import Harness, first, only_error


def played(path: Path, tables: dict[str, int], moves: int = 12) -> None:
    """Store 3-player games at ``path``: each table named with its seed, ``moves`` actions."""
    limits = Limits(tables_per_minute=len(tables), tables_per_address=len(tables))
    harness = Harness(path, limits=limits)
    try:
        for table, seed in tables.items():
            seated = harness.join(table, 3, seed=seed)
            rng = random.Random(seed)
            for _ in range(moves):
                harness.play_one([s.conn for s in seated], rng)
    finally:
        harness.close()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# Opening --------------------------------------------------------------------------------


def test_a_new_database_is_owner_only_and_marked_as_tyros(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    store = Store(str(path))
    store.create_table("t", {"players": 3, "setup": "first", "seed": 1}, 60, 0.0, "ab")
    store.close()
    assert mode(path) == 0o600
    for companion in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        if companion.exists():
            assert mode(companion) == 0o600
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    db.close()


def test_an_empty_file_is_refused_not_taken_for_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "cut.db"
    path.write_bytes(b"")
    with pytest.raises(StoreOpenError, match=r"empty \(0 bytes\).*tyros-server restore"):
        Store(str(path))


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database\n" * 50)
    with pytest.raises(StoreOpenError, match="not a SQLite database"):
        Store(str(path))
    assert path.read_text().startswith("these are my notes")  # untouched


def test_another_programs_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE invoices (id INTEGER)")
    db.commit()
    db.close()
    with pytest.raises(StoreOpenError, match="not a tyros database"):
        Store(str(path))
    db = sqlite3.connect(path)
    names = [row[0] for row in db.execute("SELECT name FROM sqlite_master")]
    db.close()
    assert names == ["invoices"]


def test_a_locked_database_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    Store(str(path)).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreOpenError, match="locked by another program"):
            Store(str(path))
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_read_only_database_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    Store(str(path)).close()
    if os.geteuid() != 0:
        path.chmod(0o400)
    elif subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("root may write any file, and chattr +i is not available here")
    try:
        with pytest.raises(StoreOpenError, match="cannot be read and written"):
            Store(str(path))
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_missing_folder_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreOpenError, match="no folder"):
        Store(str(tmp_path / "nowhere" / "t.db"))


def damage(path: Path) -> None:
    """Overwrite a page in the middle of the file with garbage, as a failing disk would."""
    data = bytearray(path.read_bytes())
    page = 4096
    pages = len(data) // page
    assert pages >= 4, "the database is too small to damage one page in its middle"
    middle = (pages // 2) * page
    data[middle : middle + page] = bytes(random.Random(1).randrange(256) for _ in range(page))
    path.write_bytes(bytes(data))


def test_a_damaged_page_is_found_at_start_and_a_backup_restores_the_games(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.db"
    played(path, {f"table-{i}": i for i in range(12)}, moves=20)
    written = backup(str(path))
    assert written == backup_paths(str(path), 3)[0] and mode(written) == 0o600
    Store(str(path)).close()  # checkpoint the WAL into the file
    damage(path)
    with pytest.raises(StoreOpenError, match=r"damaged.*tyros-server restore"):
        Store(str(path))
    restored = restore(str(path), backup_only=True)
    assert restored.used == written and restored.moved is not None and restored.moved.exists()
    store = Store(str(path))
    try:
        assert store.counts() == (12, 12 * 20)
        assert mode(path) == 0o600
    finally:
        store.close()


def test_backups_roll_newest_first(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    played(path, {"a": 1}, moves=1)
    first_copy = backup(str(path), keep=2)
    played(path, {"b": 2}, moves=1)
    backup(str(path), keep=2)
    played(path, {"c": 3}, moves=1)
    backup(str(path), keep=2)
    newest, older = backup_paths(str(path), 2)
    assert first_copy == newest and not Path(f"{path}.backup-3").exists()
    for copy, tables in ((newest, 3), (older, 2)):
        db = sqlite3.connect(copy)
        assert db.execute("SELECT COUNT(*) FROM tables").fetchone()[0] == tables
        db.close()


def test_restore_without_a_sound_backup_says_so_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    path.write_bytes(b"")
    with pytest.raises(StoreOpenError, match="no sound backup"):
        restore(str(path))
    assert path.exists() and path.read_bytes() == b""


def test_the_restore_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.db"
    played(path, {"a": 1, "b": 2}, moves=3)
    backup(str(path))
    path.write_bytes(b"")
    assert cli.main(["restore", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "restored" in out and "2 tables, 6 actions" in out, out
    # With a server holding the database, restore refuses.
    with DatabaseLock(str(path), "listening on 127.0.0.1:1"):
        assert cli.main(["restore", "--db", str(path)]) == 2
    assert "in use by another tyros-server (listening on 127.0.0.1:1" in capsys.readouterr().err


def test_the_server_command_refuses_a_bad_database_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.db"
    path.write_bytes(b"")
    assert cli.main(["--db", str(path), "--port", "0", "--log-level", "ERROR"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("tyros-server: the database") and "0 bytes" in err[0]


# One server per database ------------------------------------------------------------------


async def test_a_second_server_on_the_same_database_is_refused_naming_the_first(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "one.db")
    running = TyrosServer(ServerConfig(port=0, db=db))
    await running.start()
    try:
        with pytest.raises(StoreOpenError) as refused:
            TyrosServer(ServerConfig(port=0, db=db))
        assert f"listening on 127.0.0.1:{running.port}" in str(refused.value)
        assert f"pid {os.getpid()}" in str(refused.value)
    finally:
        await running.stop()
    TyrosServer(ServerConfig(port=0, db=db)).store.close()  # free again once stopped


# Quarantine -----------------------------------------------------------------------------------


def reopen(path: Path) -> Harness:
    return Harness(path)


def test_a_table_that_cannot_be_loaded_is_quarantined_and_the_others_resume(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.db"
    played(path, {"good": 1, "bad-action": 2, "bad-options": 3})
    db = sqlite3.connect(path)
    db.execute(
        "UPDATE actions SET action = ? WHERE table_name = 'bad-action' AND seq = 5",
        (json.dumps({"kind": "city", "space": "nowhere"}),),
    )
    db.execute("UPDATE tables SET options = 'not json' WHERE name = 'bad-options'")
    db.commit()
    db.close()
    harness = reopen(path)
    try:
        session = harness.session
        assert sorted(session.tables) == ["good"]
        assert sorted(session.quarantined) == ["bad-action", "bad-options"]
        assert harness.state("good").version == 12
        listed = {t["name"]: t for t in harness.list_tables(harness.connect())["tables"]}
        assert listed["good"].get("unavailable") is None
        assert listed["bad-action"]["unavailable"] and listed["bad-options"]["unavailable"]
        assert listed["bad-action"]["players"] == 3
        conn = harness.connect()
        out = harness.hello(conn, "bad-action", "Ann", spectate=True)
        assert isinstance(out[0], Send), out
        error = only_error(out, conn, ErrorCode.TABLE_UNAVAILABLE, out[0].message["re"])
        assert "cannot be loaded" in error["message"]
        # Nor is its record handed out for a replay (it would be the damaged one).
        out = harness.send(conn, {"type": "get_record", "id": 7, "table": "bad-action"})
        error = only_error(out, conn, ErrorCode.TABLE_UNAVAILABLE, 7)
        assert "cannot be loaded" in error["message"]
        # Nothing was changed on disk: the damaged table can still be mended by hand.
        db = sqlite3.connect(path)
        assert db.execute("SELECT COUNT(*) FROM actions WHERE table_name='bad-action'").fetchone()
        db.close()
    finally:
        harness.close()


def test_a_stored_state_digest_that_does_not_replay_quarantines_the_table(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.db"
    played(path, {"kept": 1, "changed": 2})
    db = sqlite3.connect(path)
    digests = [row[0] for row in db.execute("SELECT digest FROM actions WHERE table_name='kept'")]
    assert len(digests) == 12 and all(d and len(d) == 32 for d in digests)
    db.execute("UPDATE actions SET digest = 'x' WHERE table_name = 'changed' AND seq = 7")
    db.commit()
    db.close()
    harness = reopen(path)
    try:
        assert "kept" in harness.session.tables
        reason = harness.session.quarantined["changed"]
        assert "after its action 7" in reason and "engine changed" in reason
    finally:
        harness.close()


def test_a_game_stored_under_other_rules_is_quarantined_not_replayed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "t.db"
    played(path, {"old": 1})
    db = sqlite3.connect(path)
    assert db.execute("SELECT rules_version FROM tables").fetchone()[0] == RULES_VERSION
    db.close()
    monkeypatch.setattr(lobby_module, "RULES_VERSION", RULES_VERSION + 1)
    harness = reopen(path)
    try:
        assert "old" not in harness.session.tables
        reason = harness.session.quarantined["old"]
        assert f"rules version {RULES_VERSION} and this server" in reason
        assert f"has rules version {RULES_VERSION + 1}" in reason
    finally:
        harness.close()


def test_a_refused_write_leaves_the_state_as_it_was(tmp_path: Path) -> None:
    harness = Harness(tmp_path / "t.db")
    try:
        seated = harness.join("t", 3, seed=5)
        state = harness.state("t")
        before = (state.digest(), list(state.log or []))
        harness.store._db.execute("PRAGMA query_only=ON")  # every write now fails
        conn = next(c.conn for c in seated if harness.latest[c.conn].get("prompt"))
        legal = harness.latest[conn]["prompt"]["legal"]
        out = harness.act(conn, legal[0])
        assert first(out, conn, "error")["code"] == ErrorCode.INTERNAL.value
        assert harness.state("t") is state and (state.digest(), list(state.log or [])) == before
    finally:
        harness.close()
