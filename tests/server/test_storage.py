"""The SQLite store: schema, WAL, round trips in order, token digests, finished tables."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tyros_server.storage import StorageError, Store, StoredSeat, token_digest

OPTIONS = {"players": 3, "setup": "first", "seed": 12345, "starting_seat": None}


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tyros.sqlite"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    opened = Store(str(db_path))
    try:
        yield opened
    finally:
        opened.close()


def raw_connection(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(path))


def test_creates_its_schema(store: Store, db_path: Path) -> None:
    db = raw_connection(db_path)
    try:
        names = {
            row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        assert {"tables", "seats", "actions"} <= names
        columns = {row[1] for row in db.execute("PRAGMA table_info(seats)")}
        assert columns == {"table_name", "seat", "name", "token_digest", "program"}
    finally:
        db.close()
    assert store.table_names() == []
    assert store.load_table("nothing") is None


def test_uses_wal_mode(store: Store, db_path: Path) -> None:
    store.create_table("t", OPTIONS, 60, 1.0)
    db = raw_connection(db_path)
    try:
        assert db.execute("PRAGMA journal_mode").fetchone()[0].lower() == "wal"
    finally:
        db.close()


def test_opening_twice_keeps_the_data(db_path: Path) -> None:
    first = Store(str(db_path))
    try:
        first.create_table("t", OPTIONS, 60, 1.0)
        first.add_seat("t", 0, "Ann", token_digest("a"))
    finally:
        first.close()
    second = Store(str(db_path))  # CREATE TABLE IF NOT EXISTS: nothing is lost
    try:
        stored = second.load_table("t")
        assert stored is not None and [s.name for s in stored.seats] == ["Ann"]
    finally:
        second.close()


def test_round_trips_tables_seats_and_actions_in_order(store: Store, db_path: Path) -> None:
    store.create_table("friday", OPTIONS, 45, 10.0)
    store.create_table("other", {**OPTIONS, "seed": 1}, 60, 11.0)
    # Seats added out of order come back ordered by seat number.
    store.add_seat("friday", 1, "Bo", token_digest("tb"))
    store.add_seat("friday", 0, "Ann", token_digest("ta"))
    store.add_seat("friday", 2, "Cy Ærø", token_digest("tc"))
    store.add_seat("other", 0, "Di", token_digest("td"))
    actions: list[tuple[int, dict[str, Any]]] = [
        (0, {"kind": "expand", "tile": "12", "colour": "green"}),
        (1, {"kind": "move", "from": "TY", "to": "16W", "pay": ["violet", "wild"]}),
        (2, {"kind": "pass"}),
        (0, {"kind": "propose", "to": [1, 2], "give": ["green"], "get": ["orange"]}),
        (1, {"kind": "answer", "accept": True}),
    ]
    # Appended by seq; loading orders by seq, whatever the insertion order.
    order = [2, 0, 4, 1, 3]
    for index in order:
        seat, action = actions[index]
        store.append_action("friday", index + 1, seat, action)
    store.append_action("other", 1, 0, {"kind": "pass"})

    stored = store.load_table("friday")
    assert stored is not None
    assert stored.name == "friday"
    assert stored.options == OPTIONS
    assert stored.trade_seconds == 45
    assert stored.finished is False
    assert stored.seats == [
        StoredSeat(0, "Ann", token_digest("ta")),
        StoredSeat(1, "Bo", token_digest("tb")),
        StoredSeat(2, "Cy Ærø", token_digest("tc")),
    ]
    assert stored.actions == actions
    other = store.load_table("other")
    assert other is not None and other.actions == [(0, {"kind": "pass"})]
    assert [s.name for s in other.seats] == ["Di"]

    # A second store on the same file (a restarted server) reads the same.
    again = Store(str(db_path))
    try:
        assert again.load_table("friday") == stored
        assert again.table_names() == ["friday", "other"]
    finally:
        again.close()


def test_token_digests_not_tokens_are_stored(store: Store, db_path: Path) -> None:
    token = "Kx3-secret_TOKEN-that-must-never-be-written-0042"
    digest = token_digest(token)
    assert digest != token and len(digest) == 64
    assert digest == token_digest(token)  # stable
    assert token_digest(token + "x") != digest
    store.create_table("t", OPTIONS, 60, 1.0)
    store.add_seat("t", 0, "Ann", digest)
    store.close()
    raw = b"".join(
        path.read_bytes() for path in db_path.parent.iterdir() if path.name.startswith(db_path.name)
    )
    assert digest.encode() in raw  # the file holds the digest...
    assert token.encode() not in raw  # ...never the token
    assert token.encode("utf-16-le") not in raw and token.encode("utf-16-be") not in raw


def test_seats_are_unique(store: Store) -> None:
    store.create_table("t", OPTIONS, 60, 1.0)
    store.add_seat("t", 0, "Ann", token_digest("a"))
    with pytest.raises(StorageError):
        store.add_seat("t", 0, "Bo", token_digest("b"))  # the same seat twice
    with pytest.raises(StorageError):
        store.add_seat("t", 1, "Bo", token_digest("a"))  # the same token twice
    stored = store.load_table("t")
    assert stored is not None and stored.seats == [StoredSeat(0, "Ann", token_digest("a"))]
    store.add_seat("t", 1, "Bo", token_digest("b"))  # the store still works


def test_duplicate_table_and_action_are_refused(store: Store) -> None:
    store.create_table("t", OPTIONS, 60, 1.0)
    with pytest.raises(StorageError):
        store.create_table("t", OPTIONS, 60, 2.0)
    store.append_action("t", 1, 0, {"kind": "pass"})
    with pytest.raises(StorageError):
        store.append_action("t", 1, 1, {"kind": "withdraw"})
    stored = store.load_table("t")
    assert stored is not None and stored.actions == [(0, {"kind": "pass"})]


def test_rows_of_unknown_tables_are_refused(store: Store) -> None:
    # foreign_keys=ON: a seat or action of a table that does not exist is refused.
    with pytest.raises(StorageError):
        store.add_seat("ghost", 0, "Ann", token_digest("a"))
    with pytest.raises(StorageError):
        store.append_action("ghost", 1, 0, {"kind": "pass"})
    assert store.table_names() == []


def test_mark_finished_and_unfinished_only(store: Store, db_path: Path) -> None:
    store.create_table("b", OPTIONS, 60, 2.0)
    store.create_table("a", OPTIONS, 60, 3.0)
    store.create_table("c", OPTIONS, 60, 1.0)
    assert store.table_names() == ["c", "b", "a"]  # by creation time
    assert store.table_names(unfinished_only=True) == ["c", "b", "a"]
    store.mark_finished("b")
    assert store.table_names() == ["c", "b", "a"]
    assert store.table_names(unfinished_only=True) == ["c", "a"]
    finished = store.load_table("b")
    assert finished is not None and finished.finished is True
    unfinished = store.load_table("a")
    assert unfinished is not None and unfinished.finished is False
    store.mark_finished("b")  # idempotent
    store.mark_finished("c")
    again = Store(str(db_path))
    try:
        assert again.table_names(unfinished_only=True) == ["a"]
    finally:
        again.close()


def test_finished_listings_are_the_latest_to_end_with_a_readable_row(
    store: Store, db_path: Path
) -> None:
    for name in ("a", "b", "c", "d", "e"):
        store.create_table(name, OPTIONS, 60, 1.0)
    store.mark_finished("c", {"name": "c", "finished": True}, when=30.0)
    store.mark_finished("a", {"name": "a", "finished": True}, when=10.0)
    store.mark_finished("b", {"name": "b", "finished": True}, when=20.0)
    store.mark_finished("d")  # (ended before rows were stored: not listed)
    store.mark_finished("e", {"name": "e", "finished": True}, when=40.0)
    store.create_table("f", OPTIONS, 60, 1.0)
    store.create_table("g", OPTIONS, 60, 1.0)
    store.mark_finished("f", {"name": "f"}, when=50.0)
    store.mark_finished("g", {"name": "g"}, when=60.0)
    store.commit()
    with sqlite3.connect(db_path) as db:  # damaged rows are left out, not an error
        db.execute("UPDATE tables SET listing = '{cut' WHERE name = 'e'")
        db.execute("UPDATE tables SET listing = CAST(x'7b22ff' AS TEXT) WHERE name = 'f'")
        db.execute("UPDATE tables SET listing = ? WHERE name = 'g'", ("[" * 100_000,))
    db.close()
    assert [name for name, _ in store.finished_listings(2)] == ["b", "c"]  # the latest last
    assert store.finished_listings(10) == [
        (name, {"name": name, "finished": True}) for name in ("a", "b", "c")
    ]


def test_table_names_tie_break_by_name(store: Store) -> None:
    for name in ("zed", "amy", "max"):
        store.create_table(name, OPTIONS, 60, 5.0)
    assert store.table_names() == ["amy", "max", "zed"]


def test_a_failed_write_is_a_storage_error(store: Store) -> None:
    store.create_table("t", OPTIONS, 60, 1.0)
    store.close()
    with pytest.raises(StorageError):
        store.append_action("t", 1, 0, {"kind": "pass"})


def test_a_database_from_before_commitments_opens_with_empty_salts(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE tables (name TEXT PRIMARY KEY, options TEXT NOT NULL, "
        "trade_seconds INTEGER NOT NULL, created REAL NOT NULL, "
        "finished INTEGER NOT NULL DEFAULT 0);"
        'INSERT INTO tables VALUES (\'old\', \'{"players": 3, "setup": "first", '
        '"seed": 1}\', 60, 0, 0);'
    )
    old.commit()
    old.close()
    store = Store(str(path))
    try:
        stored = store.load_table("old")
        assert stored is not None and stored.salt == ""
        assert stored.hints is True and stored.hinted == []  # (columns added since)
        store.append_action("old", 1, 0, {"kind": "pass"}, hinted=True)
        again = store.load_table("old")
        assert again is not None and again.hinted == [True]
        store.create_table("new", {"players": 3, "setup": "first", "seed": 2}, 60, 1.0, "ab")
        fresh = store.load_table("new")
        assert fresh is not None and fresh.salt == "ab"
    finally:
        store.close()


def test_a_table_shows_its_commitment_then_its_seed() -> None:
    from tyros_server.fairness import fairness, seed_commitment

    assert fairness(7, "", True) == {}  # a table from before commitments
    assert fairness(7, "ab", False) == {"commitment": seed_commitment(7, "ab")}
    assert fairness(7, "ab", True) == {
        "commitment": seed_commitment(7, "ab"),
        "seed": 7,
        "salt": "ab",
    }
