"""The live WAL cut short and pages of the database overwritten while games are played:
what the repair at the next start gives back. SQLite acknowledges writes on top of the
hole, and the checkpoint at closing copies the hole into the database (``tables`` and
``seats`` unreadable, ``actions`` readable row by row)."""

from __future__ import annotations

import logging
import os
import random
import re
from pathlib import Path

import pytest
from tyros_server.backups import backup, open_or_repair
from tyros_server.session import Limits
from tyros_server.storage import Store, StoreDamagedError

from .harness import Harness, Seated, first

NAMES = "abc"


def play(harness: Harness, games: dict[str, list[Seated]], moves: int, seed: int) -> None:
    for offset, name in enumerate(NAMES):
        rng = random.Random(seed + offset)
        for _ in range(moves):
            harness.play_one([s.conn for s in games[name]], rng)


def overwrite(path: Path, offset: int, size: int) -> None:
    with path.open("r+b") as file:
        file.seek(offset)
        file.write(random.Random(offset).randbytes(size))


def damaged_while_playing(
    path: Path, *, backup_after_creating: bool, noticed: bool
) -> tuple[dict[str, int], dict[str, list[Seated]]]:
    """Three tables played, the WAL cut to 100 bytes, 28 more actions a table acknowledged
    on top of the hole, then 8 KiB overwritten at offset 4096 of the database file; the
    store closed (checkpointing the hole). ``noticed``: the server looks at its files
    before the overwrite (and rescues what it holds). The actions each table acknowledged,
    and its seats."""
    harness = Harness(path, limits=Limits(tables_per_minute=50))
    try:
        backup(str(path))  # as a server does at start: no table yet
        games = {name: harness.join(name, 3, seed=seed) for seed, name in enumerate(NAMES)}
        play(harness, games, 25, seed=1)
        if backup_after_creating:
            backup(str(path))
        os.truncate(f"{path}-wal", 100)
        play(harness, games, 28, seed=10)
        acknowledged = {name: harness.state(name).version for name in NAMES}
        if noticed:
            problem = harness.store.watch()
            assert problem is not None and "lost frames" in problem
            harness.store.break_off(f"the database's files were damaged ({problem})")
        overwrite(path, 4096, 8192)
    finally:
        harness.close()
    return acknowledged, games


def repaired(path: Path) -> Harness:
    with pytest.raises(StoreDamagedError):
        Store(str(path)).close()
    open_or_repair(str(path)).close()
    return Harness(path)


def every_game_back(
    path: Path,
    caplog: pytest.LogCaptureFixture,
    saying: str,
    acknowledged: dict[str, int],
    seat: Seated,
) -> None:
    """Repaired, the server says ``saying``, holds every acknowledged action of every game,
    and ``seat`` (a seated player of one) resumes with its token."""
    with caplog.at_level(logging.WARNING, logger="tyros.server"):
        harness = repaired(path)
    said = "\n".join(r.getMessage() for r in caplog.records)
    assert saying in said, said
    try:
        assert {name: harness.state(name).version for name in NAMES} == acknowledged
        conn = harness.connect()
        assert first(harness.resume(conn, seat.token), conn, "welcome")["seat"] == seat.seat
    finally:
        harness.close()


def test_noticed_while_running_every_acknowledged_action_and_token_comes_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The only backup holds no table; the rescued copy the server made holds them all."""
    path = tmp_path / "t.db"
    acknowledged, games = damaged_while_playing(path, backup_after_creating=False, noticed=True)
    assert acknowledged == {"a": 53, "b": 53, "c": 53}
    every_game_back(
        path, caplog, "read the server's rescued copies too", acknowledged, games["b"][1]
    )


def test_unnoticed_the_backups_table_rows_and_the_damaged_files_actions_make_every_game(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Nothing rescued: ``tables`` and ``seats`` are unreadable in the damaged file, so each
    game's own row and seats come from the backup, and every action from the damaged file
    (none after the backup is in the backup)."""
    path = tmp_path / "t.db"
    acknowledged, games = damaged_while_playing(path, backup_after_creating=True, noticed=False)
    every_game_back(
        path, caplog, "every row still readable taken: a, b, c", acknowledged, games["c"][2]
    )


def test_unnoticed_and_no_backup_of_the_tables_they_are_named_with_their_actions_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """No copy holds the games' own rows (their seeds): they cannot be replayed, so they
    are quarantined, saying how many actions the damaged file kept beside still holds (the
    hole and the overwritten pages took the others: the case the watcher is there for)."""
    path = tmp_path / "t.db"
    acknowledged, _ = damaged_while_playing(path, backup_after_creating=False, noticed=False)
    with caplog.at_level(logging.WARNING, logger="tyros.server"):
        harness = repaired(path)
    said = "\n".join(r.getMessage() for r in caplog.records)
    try:
        assert sorted(harness.session.quarantined) == list(NAMES)
        for name in NAMES:
            found = re.search(rf"table {name}: .*; (\d+) of its actions are in the damaged", said)
            assert found is not None and 0 < int(found[1]) <= acknowledged[name], said
    finally:
        harness.close()
