"""Each of the server's limits reached on a real server over loopback: the refusal is typed
and says why, and others are still served (the session-level details are in test_limits);
and the transport's own: browser origins, frame and read sizes, idle and slow connections."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from tyros_server.app import MAX_MESSAGE_BYTES, READ_BYTES, TyrosServer
from tyros_server.session import Limits
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.protocol import State

from .conftest import (
    STEP_TIMEOUT,
    RawClient,
    ServerFactory,
    bot_runs,
    cancel_all,
    find_table,
    finish,
    start_bots,
    url_of,
    wait_for,
)

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


# Transport limits ------------------------------------------------------------------------


async def test_browser_origins_are_refused(server: TyrosServer, open_client: OpenClient) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with connect(
            url_of(server),
            origin="http://evil.example",  # type: ignore[arg-type]
            open_timeout=10,
        ):
            pass
    assert refused.value.response.status_code == 403
    assert server.session.conns == {}
    client = await open_client(url_of(server))
    assert await client.list_tables() == []


async def test_a_frame_over_64_kib_closes_that_connection_only(
    server: TyrosServer, open_client: OpenClient
) -> None:
    url = url_of(server)
    bots = start_bots(bot_runs(url, "busy", 3, seed=51), 51)
    try:
        bystander = await open_client(url)
        at_limit = await open_client(url)
        # Exactly 64 KiB is allowed through to the parser (and refused by the schema).
        padding = MAX_MESSAGE_BYTES - len('{"type":"list_tables","id":5,"x":""}')
        frame = '{"type":"list_tables","id":5,"x":"' + "a" * padding + '"}'
        assert len(frame.encode()) == MAX_MESSAGE_BYTES
        await at_limit.ws.send(frame)
        reply = await at_limit.recv()
        assert (reply["type"], reply["re"], reply["code"]) == ("error", 5, "bad_message")

        big = await open_client(url)
        await big.ws.send(frame[:-2] + 'a"}')
        assert await big.closed_with() == 1009

        assert find_table(await bystander.list_tables(), "busy") is not None
        assert find_table(await at_limit.list_tables(), "busy") is not None
        scores = await finish(bots)
    finally:
        await cancel_all(bots)
    assert all(score == scores[0] for score in scores)


async def test_a_client_that_stops_reading_is_dropped_and_others_are_served(
    make_server: ServerFactory, open_client: OpenClient
) -> None:
    """More data waiting for one client than the server keeps: it lets that client go,
    and frees what was waiting.

    The client pauses reading at the TCP level and keeps asking for the table list (no
    rate limit here), so answers pile up for it in the kernel's buffers, then in the
    server's queue for that connection.
    """
    limit = 256 * 1024
    server = await make_server(
        limits=Limits(
            burst=10**9,
            per_second=1e9,
            address_per_second=None,
            tables_per_minute=100,
            waiting_tables_per_address=100,
            tables_per_address=100,
        ),
        max_queued_bytes=limit,
    )
    url = url_of(server)
    owners = [await open_client(url) for _ in range(20)]
    for i, owner in enumerate(owners):  # twenty tables make each list some 8 KB
        welcome = await owner.hello(
            f"table-with-a-long-name-{i:08d}", "a-rather-long-player-name", players=4
        )
        assert welcome["type"] == "welcome", welcome
    slow = await open_client(url)
    await slow.list_tables()
    port = slow.ws.local_address[1]
    peer = next(p for p in server.peers.values() if p.ws.remote_address[1] == port)
    slow.ws.transport.pause_reading()

    def backed_up() -> bool:
        return peer.dropped or peer.ws.state is not State.OPEN

    try:
        with contextlib.suppress(ConnectionClosed):
            for _ in range(40):
                for _ in range(500):
                    await slow.ws.send('{"type":"list_tables","id":1}')
                await asyncio.sleep(0.05)
                if backed_up():
                    break
        assert backed_up()
        # The server must start closing that connection now, not when the backlog drains.
        await wait_for(
            lambda: peer.ws.state is not State.OPEN,
            STEP_TIMEOUT,
            "the server to drop the client that does not read",
        )
        assert len(await owners[0].list_tables()) == 20
        # Nothing waits once it is dropped: its backlog is freed.
        assert peer.dropped and peer.queued_bytes == 0
    finally:
        slow.ws.transport.abort()


async def test_a_socket_is_read_a_little_at_a_time_and_a_long_frame_still_arrives(
    make_server: ServerFactory, open_client: OpenClient
) -> None:
    """asyncio reads 256 KiB at once and the websocket layer parses a whole read before
    anyone else is served: a flooder's read of tiny frames stalled everybody (issue 12's
    message flood). The server reads READ_BYTES at a time; a frame longer than that (here
    JSON padded to 40 KiB) is still put together whole and answered."""
    server = await make_server()
    client = await open_client(url_of(server))
    port = client.ws.local_address[1]
    peer = next(p for p in server.peers.values() if p.ws.remote_address[1] == port)
    assert getattr(peer.ws.transport, "max_size", None) == READ_BYTES
    padded = '{"type": "list_tables", ' + " " * (40 * 1024) + '"id": 7}'
    assert len(padded) > 8 * READ_BYTES
    await client.ws.send(padded)
    reply = await client.recv()
    assert reply["type"] == "tables" and reply["re"] == 7


async def test_a_connection_that_never_says_hello_is_closed(
    make_server: ServerFactory, open_client: OpenClient
) -> None:
    """The shell sleeps until the session's next deadline: here the hello timeout."""
    server = await make_server(hello_seconds=0.3)
    silent = await open_client(url_of(server))
    assert await silent.closed_with() == 1008
    assert server.session.next_deadline() is None
    player = await open_client(url_of(server))
    assert (await player.hello("on-time", "Ann", players=3))["type"] == "welcome"
