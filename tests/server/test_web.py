"""The browser's page on the websocket's port: the packaged files with their headers,
nothing else; websocket upgrades as before, refused to a page of another site."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from tyros_server.app import ServerConfig, TyrosServer
from tyros_server.web import POLICY, WebFiles
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


async def get(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """A raw HTTP/1.1 GET, the path sent exactly as given: (status, headers, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{key}: {value}" for key, value in (headers or {}).items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), TIMEOUT)
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    found = {}
    for line in header_lines:
        key, _, value = line.partition(":")
        found[key.strip().lower()] = value.strip()
    return int(status_line.split()[1]), found, body


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


def test_the_packaged_files_are_the_ones_in_the_source_tree() -> None:
    files = WebFiles.packaged()
    web = Path(__file__).resolve().parents[2] / "server" / "tyros_server" / "web"
    on_disk = {"/" + p.name for p in web.iterdir() if p.is_file()}
    assert on_disk and on_disk <= set(files.files)
    assert "/board.json" in files.files
