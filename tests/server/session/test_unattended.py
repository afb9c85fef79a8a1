"""Tables of the server's bots count towards their creator's limits, and one whose person
stopped playing is paused: it frees its place, and its person resuming brings it back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tyros_protocol.errors import ErrorCode
from tyros_server.deputies import RandomPlayer, SeatBots
from tyros_server.session import Close, Limits, Send

from ..harness import Harness, first, to

HOUR = 3600.0


def house_harness(make_harness: Callable[..., Harness], **limits: Any) -> Harness:
    return make_harness(limits=Limits(**limits), takeover=SeatBots(RandomPlayer))


def create(harness: Harness, table: str, address: str, bots: int = 2) -> tuple[int, dict[str, Any]]:
    conn = harness.connect(address)
    out = harness.hello(conn, table, "Ann", players=3, bots=bots, seed=3)
    return conn, to(out, conn)[0]


def test_tables_with_the_servers_bots_count_per_address_and_in_all(
    make_harness: Callable[..., Harness],
) -> None:
    harness = house_harness(make_harness, house_tables_per_address=2, max_house_tables=3)
    for n in range(2):
        assert create(harness, f"a{n}", "10.0.0.1")[1]["type"] == "welcome"
    _, refused = create(harness, "a2", "10.0.0.1")
    assert refused["code"] == ErrorCode.TOO_MANY_TABLES and "bots" in refused["message"]
    assert "a2" not in harness.session.tables
    assert create(harness, "b0", "10.0.0.2")[1]["type"] == "welcome"
    _, refused = create(harness, "c0", "10.0.0.3")  # three in all
    assert refused["code"] == ErrorCode.TOO_MANY_TABLES
    assert create(harness, "c1", "10.0.0.3", bots=0)[1]["type"] == "welcome"  # people's: yes


def test_running_tables_count_towards_their_creators_address(
    make_harness: Callable[..., Harness],
) -> None:
    """A table created with the server's bots starts at once: it is never 'waiting', and
    counts towards the unfinished tables of its creator's address all the same."""
    harness = house_harness(
        make_harness, tables_per_address=2, house_tables_per_address=5, max_house_tables=50
    )
    for n in range(2):
        create(harness, f"a{n}", "10.0.0.1")
        assert harness.session.tables[f"a{n}"].state is not None  # started
    _, refused = create(harness, "a2", "10.0.0.1", bots=0)
    assert refused["code"] == ErrorCode.TOO_MANY_TABLES


def test_a_table_nobody_attends_is_paused_and_its_person_brings_it_back(
    make_harness: Callable[..., Harness],
) -> None:
    harness = house_harness(make_harness, house_tables_per_address=1, unattended_table_seconds=HOUR)
    conn, welcome = create(harness, "solo", "10.0.0.1")
    token = welcome["token"]
    harness.tick()  # (the bots play until Ann is asked)
    version = harness.state("solo").version
    harness.clock.advance(HOUR - 1)
    assert harness.tick() == [] and "solo" in harness.session.tables
    harness.clock.advance(1)  # connected, and idle that long: paused
    out = harness.tick()
    error = first(out, conn, "error")
    assert error["code"] == ErrorCode.TABLE_PAUSED and "resume" in error["message"].lower()
    assert [item.conn for item in out if isinstance(item, Close)] == [conn]
    assert "solo" not in harness.session.tables  # out of memory and of every count
    harness.disconnect(conn)
    assert create(harness, "other", "10.0.0.1")[1]["type"] == "welcome"  # its place is free
    # Ann comes back (her other table is in the way of nothing: a resume creates none).
    back = harness.connect("10.0.0.1")
    out = harness.resume(back, token)
    welcome_back = first(out, back, "welcome")
    assert welcome_back["seat"] == 0 and "paused" in welcome_back["note"]
    assert harness.state("solo").version == version  # where it stood
    assert harness.latest[back]["version"] == version


def test_a_person_who_plays_keeps_the_table_and_an_away_one_does_not(
    make_harness: Callable[..., Harness],
) -> None:
    harness = house_harness(make_harness, unattended_table_seconds=HOUR)
    conn, _ = create(harness, "solo", "10.0.0.1")
    harness.tick()
    harness.clock.advance(HOUR - 10)
    harness.send(conn, {"type": "list_tables", "id": 1})  # anything said is attending
    harness.clock.advance(HOUR - 10)
    assert "solo" in harness.session.tables and harness.tick() == []
    harness.disconnect(conn)
    harness.clock.advance(HOUR)
    harness.tick()
    assert "solo" not in harness.session.tables
    stranger = harness.connect("10.0.0.9")
    out = harness.resume(stranger, "x" * 43)
    assert first(out, stranger, "error")["code"] == ErrorCode.BAD_TOKEN
    assert not [i for i in out if isinstance(i, Send) and i.message["type"] == "welcome"]
