"""The shell's socket bounds on a real server: half-open sockets make way for newcomers,
and the connection cap fits under the process's file-descriptor limit."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable
from pathlib import Path

from tyros_server.app import FD_RESERVE
from websockets.exceptions import ConnectionClosed

from .conftest import HOST, STEP_TIMEOUT, RawClient, ServerFactory, url_of, wait_for


async def test_half_open_sockets_make_way_for_a_newcomer(
    make_server: ServerFactory, open_client: Callable[..., Awaitable[RawClient]]
) -> None:
    server = await make_server(max_per_address=4)
    half_open = []
    for _ in range(10):  # connected, and never a word of the handshake
        reader, writer = await asyncio.open_connection(HOST, server.port)
        half_open.append((reader, writer))
    try:
        await wait_for(
            lambda: sum(server.handshakes.by_address.values()) == 4,
            what="the server to hold at most 4 half-open sockets of one address",
        )
        # The oldest six were let go: they read the end of the stream at once.
        for reader, _ in half_open[:6]:
            assert await asyncio.wait_for(reader.read(), STEP_TIMEOUT) == b""
        client = await open_client(url_of(server))
        welcome = await client.hello("open", "Ann", players=3)
        assert welcome["type"] == "welcome"
        assert sum(server.handshakes.by_address.values()) <= 4
    finally:
        for _, writer in half_open:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


def test_the_connection_cap_fits_the_file_descriptor_limit(tmp_path: Path) -> None:
    """Started with 200 open files allowed (soft and hard), the server keeps its sockets
    under that, and says what cap results."""
    script = textwrap.dedent(
        f"""
        import asyncio, logging, resource, sys
        resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))
        logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")
        from tyros_server.app import ServerConfig, TyrosServer

        async def main():
            server = TyrosServer(ServerConfig(port=0, db={str(tmp_path)!r} + "/fd.db"))
            await server.start()
            print("CAP", server.max_connections, server.handshakes.total)
            await server.stop()

        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    cap_line = next(line for line in done.stdout.splitlines() if line.startswith("CAP"))
    connections, handshakes = map(int, cap_line.split()[1:])
    assert connections > 0 and handshakes > 0
    assert connections + handshakes + FD_RESERVE <= 200
    assert f"connection cap {connections} (1024 configured)" in done.stdout
    assert "200 open files allowed" in done.stdout


async def test_a_few_addresses_cannot_take_every_connection(make_server: ServerFactory) -> None:
    """Four connections from one address at most, and the last four places of sixteen for
    addresses that hold none: three machines that open all they may, and a fourth, leave
    a place for every newcomer."""
    server = await make_server(
        max_connections=16, max_per_address=4, address_reserve=4, connections_per_second=None
    )
    url = url_of(server)
    held: list[RawClient] = []

    async def attempt(address: str) -> RawClient | None:
        client = await RawClient.open(url, local_addr=(address, 0))
        with contextlib.suppress(ConnectionClosed):  # (refused: it may be closed already)
            await client.send({"type": "list_tables"})
        first = await client.recv()
        if first["type"] == "tables":  # let in
            held.append(client)
            return client
        assert first["code"] == "too_many_connections"
        await client.ws.wait_closed()
        return None

    try:
        for host in (2, 3, 4):
            for _ in range(4):
                assert await attempt(f"127.0.0.{host}") is not None
            assert await attempt(f"127.0.0.{host}") is None  # its fifth
        await wait_for(lambda: len(server.peers) == 12, what="12 connections")
        assert await attempt("127.0.0.5") is not None  # holds none: a reserved place
        assert await attempt("127.0.0.5") is None  # holds one: the reserve is not for it
        assert await attempt("127.0.0.6") is not None  # a newcomer still gets in
    finally:
        for client in held:
            await client.ws.close()
