"""The browser's page on the websocket's port: the packaged files with their headers,
nothing else; websocket upgrades as before, refused to a page of another site, to a name
that is not the server's (DNS rebinding), to a repeated header; GET and HEAD only."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from tyros_protocol.words import LETTERS, page_catalogue
from tyros_server.app import ServerConfig, TyrosServer
from tyros_server.web import POLICY, OwnNames, RefusalLog, WebFiles, host_of, page_words
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

TIMEOUT = 10.0


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[TyrosServer]:
    running = TyrosServer(ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "t.db")))
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


async def request(
    port: int,
    lines: list[str],
    method: str = "GET",
    path: str = "/",
    source: str = "127.0.0.1",
) -> tuple[int, dict[str, str], bytes]:
    """A raw HTTP/1.1 request with these header lines, the path sent exactly as given, from
    the loopback address ``source``: (status, headers, body; none after a 101)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(("\r\n".join([f"{method} {path} HTTP/1.1", *lines]) + "\r\n\r\n").encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
    status_line, *header_lines = head.decode().strip().split("\r\n")
    status = int(status_line.split()[1])
    body = b"" if status == 101 else await asyncio.wait_for(reader.read(), TIMEOUT)
    writer.close()
    found = {}
    for line in header_lines:
        key, _, value = line.partition(":")
        found[key.strip().lower()] = value.strip()
    return status, found, body


async def get(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """A GET of ``path`` as the page asks for it (``Host`` the address it was served from)."""
    lines = [f"Host: 127.0.0.1:{port}"] + [f"{k}: {v}" for k, v in (headers or {}).items()]
    return await request(port, lines, path=path)


def upgrade(host: str, *more: str) -> list[str]:
    """The header lines of a websocket upgrade asked for ``host``."""
    key = base64.b64encode(os.urandom(16)).decode()
    return [
        f"Host: {host}",
        *more,
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]


async def test_the_page_and_its_files_are_served_with_their_headers(server: TyrosServer) -> None:
    status, headers, body = await get(server.port, "/")
    assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    assert headers["content-security-policy"] == POLICY and "script-src 'self'" in POLICY
    assert headers["x-content-type-options"] == "nosniff"
    page = body.decode()
    assert "<script" in page and not re.search(r"<script(?![^>]*\bsrc=)", page)  # no inline
    # Every file the page refers to is served, with its own type.
    kinds = {".js": "text/javascript", ".css": "text/css", ".json": "application/json"}
    total = len(body)
    refs = [r for r in re.findall(r'(?:src|href)="([^"]+)"', page) if not r.startswith("data:")]
    for name in [*refs, "board.json"]:
        status, headers, content = await get(server.port, "/" + name)
        assert status == 200, name
        assert headers["content-type"].startswith(kinds[name[name.rfind(".") :]]), name
        total += len(content)
    assert total < 200_000  # the page and its scripts, small
    board = json.loads((await get(server.port, "/board.json"))[2])
    assert board["grid"][3][6] == "TY"
    # The catalogue the page speaks from, with the protocol's letters, cards and clock bounds.
    words = json.loads((await get(server.port, "/words.json"))[2])
    assert words == page_words() and words["letters"] == LETTERS
    assert {**words, "rules": None} == {**page_catalogue(), "rules": None}
    # A reload asks whether the file changed: not, so no body.
    tag = (await get(server.port, "/app.js"))[1]["etag"]
    status, headers, content = await get(server.port, "/app.js", {"If-None-Match": tag})
    assert status == 304 and content == b"" and headers["etag"] == tag


@pytest.mark.parametrize(
    "path",
    [
        "/nope.html",
        "/../app.py",
        "/%2e%2e/app.py",
        "/web/",
        "/web/app.js",
        "//etc/passwd",
        "/tyros.db",
        "/app.js/",
        "/..",
    ],
)
async def test_nothing_but_the_packaged_files_is_served(server: TyrosServer, path: str) -> None:
    status, headers, body = await get(server.port, path)
    assert status == 404 and body == b"not found\n"
    assert headers["x-content-type-options"] == "nosniff"


async def test_websockets_still_upgrade_on_the_same_port_but_not_for_another_site(
    server: TyrosServer,
) -> None:
    url = f"ws://127.0.0.1:{server.port}/"
    hello = {"type": "list_tables", "id": 1}
    for origin in (None, f"http://127.0.0.1:{server.port}"):  # a program; this server's page
        async with connect(url, origin=origin) as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps(hello))
            answer = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert answer["type"] == "tables" and answer["re"] == 1
    with pytest.raises(InvalidStatus) as refused:
        async with connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
            pass
    assert refused.value.response.status_code == 403


async def test_a_name_that_is_not_the_servers_is_refused_page_and_websocket(
    server: TyrosServer,
) -> None:
    """DNS rebinding: another site's name, made to lead here, with its own page as Origin."""
    port = server.port
    rebound = f"rebind.example:{port}"
    status, headers, body = await request(port, upgrade(rebound, f"Origin: http://{rebound}"))
    assert status == 421 and b"--host-name" in body
    assert headers["server"] == "tyros" and headers["content-type"].startswith("text/plain")
    for host in (rebound, "rebind.example", "127.0.0.1.nip.io", "localhost.example", "[::1]"):
        assert (await request(port, [f"Host: {host}"]))[0] == 421, host
        assert (await request(port, upgrade(host)))[0] == 421, host
    assert (await request(port, []))[0] == 400  # no Host at all
    # Its own names and the address it was reached at: page and websocket.
    for host in ("127.0.0.1", "localhost", "LOCALHOST.", socket.gethostname()):
        named = f"{host}:{port}"
        assert (await request(port, [f"Host: {named}"]))[0] == 200, host
        status, headers, _ = await request(port, upgrade(named, f"Origin: http://{named}"))
        assert status == 101 and headers["server"] == "tyros", host
    # Its own name, and a page of another site (no rebinding needed): as before, 403.
    own = f"127.0.0.1:{port}"
    assert (await request(port, upgrade(own, "Origin: http://evil.example")))[0] == 403
    assert (await request(port, upgrade(own, "Origin: null")))[0] == 403


async def test_a_name_given_with_host_name_is_answered(tmp_path: Path) -> None:
    config = ServerConfig(
        host="127.0.0.1", port=0, db=str(tmp_path / "n.db"), host_names=("Tyros.LAN", "10.9.8.7")
    )
    named = TyrosServer(config)
    await named.start()
    try:
        port = named.port
        for host in (f"tyros.lan:{port}", f"10.9.8.7:{port}"):
            assert (await request(port, [f"Host: {host}"]))[0] == 200, host
            status, _, _ = await request(port, upgrade(host, f"Origin: http://{host}"))
            assert status == 101, host
        assert (await request(port, [f"Host: other.lan:{port}"]))[0] == 421
        async with connect(f"ws://localhost:{port}/", origin=f"http://localhost:{port}") as ws:  # type: ignore[arg-type]
            await ws.send(json.dumps({"type": "list_tables", "id": 1}))
            assert json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))["type"] == "tables"
    finally:
        await named.stop()


async def test_a_repeated_host_or_origin_is_a_400_in_one_log_line_per_address_a_minute(
    server: TyrosServer, caplog: pytest.LogCaptureFixture
) -> None:
    port = server.port
    own = f"127.0.0.1:{port}"
    repeated = [
        upgrade(own, f"Host: {own}"),
        upgrade(own, f"Origin: http://{own}", f"Origin: http://{own}"),
        [f"Host: {own}", "Host: rebind.example"],
        [f"Host: {own}", 'If-None-Match: "a"', 'If-None-Match: "b"'],
    ]
    with caplog.at_level(logging.INFO):
        for source in ("127.0.0.1", "127.0.0.2"):
            for _ in range(3):
                for lines in repeated:
                    status, _, body = await request(port, lines, source=source)
                    assert status == 400 and body.startswith(b"one ") and b"header" in body
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    ours = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(ours) == 2, ours  # one for each address, in a minute of refusals
    assert "127.0.0.1" in ours[0] and "127.0.0.2" in ours[1] and "repeated" in ours[0]


@pytest.mark.parametrize("method", ["DELETE", "TRACE", "CONNECT", "OPTIONS", "POST", "BREW"])
async def test_only_get_and_head_are_answered(server: TyrosServer, method: str) -> None:
    port = server.port
    status, headers, body = await request(port, [f"Host: 127.0.0.1:{port}"], method=method)
    assert status == 405 and headers["allow"] == "GET, HEAD" and b"index" not in body
    status, _, _ = await request(port, upgrade(f"127.0.0.1:{port}"), method=method)
    assert status == 405


async def test_head_answers_the_headers_of_get_without_the_body(server: TyrosServer) -> None:
    port = server.port
    for path in ("/", "/app.js", "/nope"):
        status, got, body = await get(port, path)
        head_status, head, nothing = await request(
            port, [f"Host: 127.0.0.1:{port}"], method="HEAD", path=path
        )
        assert (head_status, nothing) == (status, b"") and body
        assert head["content-length"] == got["content-length"] == str(len(body))
        assert head["server"] == got["server"] == "tyros"  # no Python or websockets version
    # A HEAD is refused as a GET would be, and still without a body.
    status, _, nothing = await request(port, ["Host: rebind.example"], method="HEAD")
    assert (status, nothing) == (421, b"")


def test_a_host_is_its_name_or_address_without_port_case_or_final_dot() -> None:
    assert host_of("Example.COM.:80") == "example.com"
    assert host_of("[FE80::1]:8765") == "fe80::1" and host_of("[::1") is None
    assert host_of("a:b") is None and host_of(":80") is None and host_of("h:") == "h"
    names = OwnNames.of("0.0.0.0", ["tyros.lan", "192.168.1.9"])
    assert names.answer_to("TYROS.lan:8765", None) and names.answer_to("localhost", None)
    assert names.answer_to("192.168.1.9:1", None)
    assert names.answer_to("10.0.0.5:8765", "10.0.0.5")  # the address it was reached at
    assert names.answer_to("[::ffff:10.0.0.5]:8765", "10.0.0.5")
    assert not names.answer_to("10.0.0.6:8765", "10.0.0.5")
    assert not names.answer_to("0.0.0.0:8765", "127.0.0.1")
    assert not names.answer_to("tyros.lan.evil.example", None)


def test_refusals_are_logged_once_per_address_a_minute_in_bounded_memory() -> None:
    now = [0.0]
    log = RefusalLog(every=60.0, most=3, clock=lambda: now[0])
    assert [log.allows(a) for a in ("a", "a", "b", "c", "d")] == [True, False, True, True, False]
    now[0] = 59.9
    assert not log.allows("a")
    now[0] = 60.0
    assert log.allows("d") and log.allows("a") and len(log.last) <= 3


def test_the_packaged_files_are_the_ones_in_the_source_tree() -> None:
    files = WebFiles.packaged()
    web = Path(__file__).resolve().parents[2] / "server" / "tyros_server" / "web"
    on_disk = {"/" + p.name for p in web.iterdir() if p.is_file()}
    assert on_disk and on_disk <= set(files.files)
    assert "/board.json" in files.files
