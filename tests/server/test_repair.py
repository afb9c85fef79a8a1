"""Damage on disk costs only what it touches: a server meeting damaged pages at start
restores the newest backup and then every table still readable and newer, quarantines
only the tables lost, puts SQLite's whole check in a file and leaves no stray files."""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import pytest
from tyros_server import cli
from tyros_server.backups import backup, open_or_repair, restore
from tyros_server.session import Limits
from tyros_server.storage import Store, StoreDamagedError

from .harness import Harness, Seated


def play(harness: Harness, seated: list[Seated], moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        harness.play_one([s.conn for s in seated], rng)


def leaf_holding_only(path: Path, table: str) -> int:
    """The number of a page of the ``actions`` b-tree holding none but ``table``'s rows."""
    db = sqlite3.connect(path)
    try:
        leaves = db.execute(
            "SELECT pageno, ncell FROM dbstat WHERE name = 'actions' AND pagetype = 'leaf' "
            "ORDER BY path"
        ).fetchall()
        rows = db.execute("SELECT rowid, table_name FROM actions ORDER BY rowid").fetchall()
    finally:
        db.close()
    start = 0
    for page, cells in leaves:
        owners = {owner for _, owner in rows[start : start + cells]}
        start += cells
        if owners == {table}:
            return int(page)
    raise AssertionError(f"no page holds only table {table}'s actions")


def zero_pages(path: Path, pages: list[int], size: int = 4096) -> None:
    data = bytearray(path.read_bytes())
    for page in pages:
        data[(page - 1) * size : page * size] = bytes(size)
    path.write_bytes(bytes(data))


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    """``a``, ``b`` (50 actions) and ``c`` (100) backed up, then ``a`` and ``c`` played on,
    ``d`` and ``e`` new since the backup; then a page of ``c``'s and one of ``e``'s zeroed."""
    path = tmp_path / "t.db"
    harness = Harness(path, limits=Limits(tables_per_minute=10))
    try:
        games = {name: harness.join(name, 3, seed=seed) for seed, name in enumerate("abc")}
        for seed, name in enumerate("abc"):
            play(harness, games[name], 100 if name == "c" else 50, seed)
        backup(str(path))
        games |= {name: harness.join(name, 3, seed=seed) for seed, name in enumerate("de")}
        for seed, name in enumerate("acde"):
            play(harness, games[name], 30 if name in "ac" else 80, 10 + seed)
    finally:
        harness.close()
    Store(str(path)).close()  # the journal checkpointed into the file
    zero_pages(path, [leaf_holding_only(path, "c"), leaf_holding_only(path, "e")])
    return path


def test_a_damaged_database_at_start_costs_only_the_tables_it_touched(
    damaged: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with pytest.raises(StoreDamagedError):
        Store(str(damaged)).close()
    with caplog.at_level(logging.WARNING, logger="tyros.server"):
        open_or_repair(str(damaged)).close()
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "is damaged" in errors[0], errors
    [check] = damaged.parent.glob("t.db.check-*.txt")
    assert str(check) in errors[0] and "malformed" in check.read_text()
    said = "\n".join(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)
    # c's lost page is filled by the backup's rows; e, new since, resumes before its gap.
    assert "every row still readable taken: a, c, d, e" in said
    assert "table e: action " in said and "is unreadable in every copy" in said
    assert "table c" not in said and "table b" not in said and "quarantined" not in said

    harness = Harness(damaged)
    try:
        session = harness.session
        assert sorted(session.tables) == ["a", "b", "c", "d", "e"]
        versions = {name: harness.state(name).version for name in "abcd"}
        assert versions == {"a": 80, "b": 50, "c": 130, "d": 80}
        assert 0 < harness.state("e").version < 80
        assert not session.quarantined
    finally:
        harness.close()
    left = sorted(p.name for p in damaged.parent.iterdir())
    assert not [name for name in left if "restoring" in name or "backup-1-" in name], left


def test_restore_takes_the_newer_tables_unless_told_to_take_the_backup_only(
    damaged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["restore", "--db", str(damaged)]) == 0
    out = capsys.readouterr().out
    assert "5 tables, 363 actions" in out and "taken: a, c, d, e" in out, out
    assert "table e: action 24 is unreadable in every copy: it resumes after action 23" in out
    # Taking the backup as it is brings back what the backup holds, nothing more.
    assert cli.main(["restore", "--db", str(damaged), "--backup-only"]) == 0
    assert "3 tables, 200 actions" in capsys.readouterr().out


def test_without_a_backup_the_readable_tables_are_kept(damaged: Path) -> None:
    for copy in damaged.parent.glob("t.db.backup-*"):
        copy.unlink()
    restored = restore(str(damaged))
    assert restored.used is None and restored.newer == ["a", "b", "c", "d", "e"]
    assert sorted(restored.cut) == ["c", "e"] and not restored.quarantined
    assert restored.lines()[0].endswith("with no sound backup: 5 tables, 249 actions")
