"""Each of the server's limits reached on a real server over loopback: the refusal is typed
and says why, and others are still served. (The session-level details are in test_limits.)"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tyros_server.app import TyrosServer
from tyros_server.session import Limits

from .conftest import RawClient, ServerFactory, url_of, wait_for

OpenClient = Callable[..., Awaitable[RawClient]]


async def client_from(open_client: OpenClient, server: TyrosServer, address: str) -> RawClient:
    """A client whose connection comes from ``address`` (any 127.x.y.z is this machine)."""
    return await open_client(url_of(server), local_addr=(address, 0))


async def test_table_bounds(make_server: ServerFactory, open_client: OpenClient) -> None:
    server = await make_server(limits=Limits(max_open_tables=3, tables_per_minute=2))
    first = await client_from(open_client, server, "127.0.0.2")
    replies = [
        await (await client_from(open_client, server, "127.0.0.2")).hello(f"t{i}", "A")
        for i in range(3)
    ]
    assert [r["type"] for r in replies] == ["welcome", "welcome", "error"]
    assert replies[2]["code"] == "too_many_tables" and "last minute" in replies[2]["message"]
    other = await client_from(open_client, server, "127.0.0.3")
    assert (await other.hello("t2", "B"))["type"] == "welcome"
    full = await (await client_from(open_client, server, "127.0.0.4")).hello("t3", "C")
    assert full["code"] == "too_many_tables" and "3 unfinished tables" in full["message"]
    assert [t["name"] for t in await first.list_tables()] == ["t0", "t1", "t2"]


async def test_list_tables_in_pages(make_server: ServerFactory, open_client: OpenClient) -> None:
    server = await make_server(limits=Limits(list_page=2))
    for index, name in enumerate(["c", "a", "b"]):
        owner = await client_from(open_client, server, f"127.0.1.{index + 1}")
        assert (await owner.hello(name, "A"))["type"] == "welcome"
    reader = await open_client(url_of(server))
    first_page = await reader.request({"type": "list_tables"})
    assert [t["name"] for t in first_page["tables"]] == ["a", "b"] and first_page["next"] == "b"
    last_page = await reader.request({"type": "list_tables", "after": first_page["next"]})
    assert [t["name"] for t in last_page["tables"]] == ["c"] and last_page["next"] is None


async def test_spectator_bounds_and_idle_spectators(
    make_server: ServerFactory, open_client: OpenClient
) -> None:
    server = await make_server(
        limits=Limits(spectators_per_table=2, spectators_per_address=1, spectator_idle_seconds=0.5)
    )
    owner = await open_client(url_of(server))
    assert (await owner.hello("show", "A"))["type"] == "welcome"
    replies: list[dict[str, Any]] = []
    watchers = []
    for address in ("127.0.2.1", "127.0.2.1", "127.0.2.2", "127.0.2.3"):
        watcher = await client_from(open_client, server, address)
        replies.append(await watcher.hello("show", "w", spectate=True))
        watchers.append(watcher)
    assert [r.get("code", r["type"]) for r in replies] == [
        "welcome",
        "too_many_spectators",
        "welcome",
        "too_many_spectators",
    ]
    assert "your address" in replies[1]["message"] and "2 spectators" in replies[3]["message"]
    # Nothing happens at the table: both spectators are closed, the seated player is not.
    assert await watchers[0].closed_with() == 1000
    assert await watchers[2].closed_with() == 1000
    assert (await owner.list_tables())[0]["spectators"] == 0


async def test_an_address_that_floods_is_slowed_then_closed_and_others_are_served(
    make_server: ServerFactory, open_client: OpenClient
) -> None:
    server = await make_server(
        limits=Limits(address_burst=20, address_per_second=5.0, flood_close=30)
    )
    flooders = [await client_from(open_client, server, "127.0.3.1") for _ in range(5)]
    for _ in range(12):
        for flooder in flooders:
            await flooder.send({"type": "list_tables"})
    codes = []
    for flooder in flooders:
        for _ in range(12):
            message = await flooder.recv()
            codes.append(message.get("code", message["type"]))
    assert codes.count("tables") <= 20 + 5 and codes.count("rate_limited") >= 30
    # Keep going and the connection is cut; another address is served meanwhile.
    bystander = await client_from(open_client, server, "127.0.3.2")
    for _ in range(40):
        await flooders[0].send({"type": "list_tables"})
    assert await flooders[0].closed_with() == 1006  # cut: a flooder would not read a close
    assert await bystander.list_tables() == []


async def test_an_abandoned_table_is_removed(
    make_server: ServerFactory, open_client: OpenClient
) -> None:
    server = await make_server(limits=Limits(unstarted_table_seconds=0.3))
    owner = await open_client(url_of(server))
    assert (await owner.hello("left", "A"))["type"] == "welcome"
    await owner.close()
    await wait_for(lambda: "left" not in server.session.tables, what="the table to go")
    assert not server.store.has_table("left")
