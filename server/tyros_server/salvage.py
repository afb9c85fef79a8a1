"""Every row a damaged database still gives back, and the games they make together with
other copies (a backup, a rescued file).

A damaged page costs the rows on it, not its whole SQL table: each SQL table is read in
rowid order, and where the reading fails the rows after the damage are looked for one by
one (:func:`readable_rows`). A game is then put together row by row from every copy
(:func:`merge`): its ``tables`` row from wherever one is readable (the damaged file first,
as the newest), its seats and actions from each copy, the newest copy's first; the actions
kept are those from the first on without a gap (a game is replayed in order).
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KEYS = {"tables": "name", "seats": "table_name", "actions": "table_name", "chat": "table_name"}
"""Each stored SQL table, and the column naming the game table a row belongs to."""

ROW_KEYS = {"tables": (), "seats": ("seat",), "actions": ("seq",), "chat": ("seq",)}
"""What tells a game's rows of each SQL table apart (one ``tables`` row a game)."""

GAP = 100_000
"""Rowids looked for one by one past a damaged part, when the largest cannot be read."""

Row = dict[str, Any]
Rows = dict[str, list[Row]]
"""One game table's rows in each stored SQL table, a row as a dict of its columns."""


def read_only(path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    """A connection that writes nothing; ``immutable`` also creates no ``-wal``/``-shm``
    beside the file (for a backup, which never has a journal of its own)."""
    flag = "&immutable=1" if immutable else ""
    return sqlite3.connect(f"file:{path}?mode=ro{flag}", uri=True)


def readable_rows(db: sqlite3.Connection, sql_table: str, columns: list[str]) -> list[Row]:
    """Every row of ``sql_table`` that can be read, in rowid order: past a damaged part
    the rows are looked for one by one (a lookup of a row on a sound page succeeds)."""
    listed = ", ".join(columns)
    scan = f"SELECT rowid, {listed} FROM {sql_table} NOT INDEXED WHERE rowid > ? ORDER BY rowid"
    one = f"SELECT rowid, {listed} FROM {sql_table} NOT INDEXED WHERE rowid = ?"
    top: int | None = None
    with contextlib.suppress(sqlite3.DatabaseError):
        top = db.execute(f"SELECT max(rowid) FROM {sql_table}").fetchone()[0] or 0
    rows: list[Row] = []
    after = 0
    while True:
        try:
            for found in db.execute(scan, (after,)):
                rows.append(dict(zip(columns, found[1:], strict=True)))
                after = found[0]
            return rows
        except sqlite3.DatabaseError:
            pass
        last = (top if top is not None else after + GAP) + 1
        for rowid in range(after + 1, last):
            with contextlib.suppress(sqlite3.DatabaseError):
                found = db.execute(one, (rowid,)).fetchone()
                if found is not None:  # past the damage: scan on from here
                    rows.append(dict(zip(columns, found[1:], strict=True)))
                    after = rowid
                    break
        else:
            return rows


@dataclass
class Found:
    """What one file gives back: each game table's rows, and the columns each SQL table
    has there; ``problem`` if the file cannot be read at all."""

    games: dict[str, Rows] = field(default_factory=dict)
    columns: dict[str, list[str]] = field(default_factory=dict)
    problem: str | None = None


def read_file(path: Path, *, immutable: bool = False) -> Found:
    """Every readable row of ``path``, grouped by game table (:func:`readable_rows`)."""
    found = Found()
    if not path.exists():
        found.problem = "missing"
        return found
    try:
        db = read_only(path, immutable=immutable)
    except sqlite3.Error as exc:
        found.problem = str(exc)
        return found
    try:
        for sql_table, key in KEYS.items():
            try:
                columns = [row[1] for row in db.execute(f"PRAGMA table_info({sql_table})")]
            except sqlite3.DatabaseError as exc:
                found.problem = f"the file cannot be read ({exc})"
                return found
            found.columns[sql_table] = columns
            if not columns:
                continue  # an older database, from before table talk
            for row in readable_rows(db, sql_table, columns):
                name = row.get(key)
                if isinstance(name, str):
                    found.games.setdefault(name, {t: [] for t in KEYS})[sql_table].append(row)
    finally:
        db.close()
    return found


@dataclass
class Game:
    """A game put together from every copy (:func:`merge`)."""

    rows: Rows
    found_actions: int
    """Actions found in all (the kept ones, and those after a gap)."""
    gap: int | None = None
    """The first action missing, if actions were found after it (they are not kept)."""
    orphan: bool = False
    """No copy holds its ``tables`` row readable: it cannot be replayed (no options)."""


def merge(copies: list[Found]) -> dict[str, Game]:
    """Each game table named in any copy, put together from all of them, newest first
    (module docs). A copy whose ``tables`` row for the name is another game's (a table
    removed and its name taken again) gives that game nothing."""
    names = sorted({name for copy in copies for name in copy.games})
    games = {}
    for name in names:
        held = [copy.games[name] for copy in copies if name in copy.games]
        first = next((rows["tables"][0] for rows in held if rows["tables"]), None)
        same = [rows for rows in held if not rows["tables"] or _same_game(rows["tables"][0], first)]
        rows: Rows = {}
        for sql_table in KEYS:
            chosen: dict[tuple[Any, ...], Row] = {}
            for copy_rows in same:
                for row in copy_rows[sql_table]:
                    chosen.setdefault(tuple(row.get(k) for k in ROW_KEYS[sql_table]), row)
            rows[sql_table] = [chosen[key] for key in sorted(chosen, key=_order)]
        games[name] = _game(rows)
    return games


def _same_game(row: Row, first: Row | None) -> bool:
    return first is None or (row.get("created"), row.get("salt")) == (
        first.get("created"),
        first.get("salt"),
    )


def _order(key: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple((0, k) if isinstance(k, int) else (1, str(k)) for k in key)


def _game(rows: Rows) -> Game:
    seqs = {row["seq"] for row in rows["actions"] if isinstance(row.get("seq"), int)}
    kept = 0
    while kept + 1 in seqs:
        kept += 1
    game = Game(rows, len(seqs), None if kept == len(seqs) else kept + 1, not rows["tables"])
    rows["actions"] = [row for row in rows["actions"] if row.get("seq") in range(1, kept + 1)]
    if game.gap is not None and rows["tables"]:  # not over as far as what is kept shows
        rows["tables"] = [{**rows["tables"][0], "finished": 0}]
    return game
