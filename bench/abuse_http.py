"""The attacks on a LAN server's HTTP and input edges (issue: a server nobody on the LAN can
take down, points 6-9), each tried once against a fresh ``tyros-server``:

  rebinding    a websocket upgrade naming another site (``Host: rebind.example:PORT``,
               ``Origin: http://rebind.example:PORT``), as a page whose name was rebound
               to the server's address sends it
  repeated     a GET, and a websocket upgrade, with the Host header twice, then Origin
  methods      DELETE, TRACE, CONNECT, OPTIONS and a made-up method on ``/``; HEAD (does a
               body come back?); the ``Server:`` header
  dup-keys     ``{"type":"bogus","type":"list_tables"}``: refused, or the last key wins?
  confusables  "Scarn" joins a table where "Scam" sits, "PayPaI" one where "Paypal" sits

    python bench/abuse_http.py [--json]

Reported: each answer (status line, or the reply's type and code), and how many tracebacks
and lines the server logged (at WARNING).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import ServerProcess
from websockets.asyncio.client import ClientConnection, connect

HOST = "127.0.0.1"


async def http(port: int, head: str, source: str | None = None) -> dict[str, Any]:
    """Send a raw request (from ``source``, an address of this machine); its status line,
    ``Server:`` header and body length."""
    local = None if source is None else (source, 0)
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=local)
    data = b""  # (closed or silent before a byte came: an empty answer)
    try:
        writer.write(head.encode())
        data = await asyncio.wait_for(reader.read(1 << 20), 5)
        while chunk := await asyncio.wait_for(reader.read(1 << 20), 2):
            data += chunk
    except (TimeoutError, ConnectionError):
        pass
    finally:
        writer.close()
    if not data:  # (a server cutting connections from an address that opens too many)
        return {"status": "closed before an answer", "server": None, "body_bytes": 0}
    top, _, body = data.partition(b"\r\n\r\n")
    lines = top.decode(errors="replace").split("\r\n")
    server = next(
        (x.split(":", 1)[1].strip() for x in lines if x.lower().startswith("server:")), None
    )
    return {"status": lines[0] if lines else "", "server": server, "body_bytes": len(body)}


def request(method: str, port: int, *headers: str, host: str | None = None) -> str:
    names = [f"Host: {host or f'{HOST}:{port}'}", *headers, "Connection: close"]
    return f"{method} / HTTP/1.1\r\n" + "".join(f"{h}\r\n" for h in names) + "\r\n"


UPGRADE = (
    "Upgrade: websocket",
    "Connection: Upgrade",
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
    "Sec-WebSocket-Version: 13",
)


async def rebinding(port: int, source: str | None = None) -> dict[str, Any]:
    name = f"rebind.example:{port}"
    head = f"GET / HTTP/1.1\r\nHost: {name}\r\nOrigin: http://{name}\r\n"
    head += "".join(f"{h}\r\n" for h in UPGRADE) + "\r\n"
    return {"upgrade for rebind.example": (await http(port, head, source))["status"]}


async def repeated(port: int, source: str | None = None) -> dict[str, Any]:
    host, origin = f"Host: {HOST}:{port}", f"Origin: http://{HOST}:{port}"
    found: dict[str, Any] = {}
    for name, twice in (("Host", (host,)), ("Origin", (origin, origin))):
        found[f"GET, {name} twice"] = (await http(port, request("GET", port, *twice), source))[
            "status"
        ]
        upgrade = request("GET", port, *twice, *UPGRADE).replace("Connection: close\r\n", "")
        found[f"upgrade, {name} twice"] = (await http(port, upgrade, source))["status"]
    return found


async def methods(port: int, source: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for method in ("DELETE", "TRACE", "CONNECT", "OPTIONS", "BREW"):
        found[method] = (await http(port, request(method, port), source))["status"]
    head = await http(port, request("HEAD", port), source)
    found["HEAD"] = f"{head['status']}, body {head['body_bytes']} bytes"
    found["Server header"] = head["server"]
    return found


async def send(ws: ClientConnection, text: str) -> dict[str, Any]:
    await ws.send(text)
    reply: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 5))
    return reply


def kind(reply: dict[str, Any]) -> str:
    return reply["type"] + (f" {reply['code']}" if reply["type"] == "error" else "")


def _from(source: str | None) -> dict[str, Any]:
    return {} if source is None else {"local_addr": (source, 0)}


async def dup_keys(port: int, source: str | None = None) -> dict[str, Any]:
    async with connect(f"ws://{HOST}:{port}/", **_from(source)) as ws:
        reply = await send(ws, '{"type":"bogus","type":"list_tables","id":1}')
    return {'{"type":"bogus","type":"list_tables"}': kind(reply)}


async def seated(
    port: int, table: str, name: str, source: str | None = None
) -> tuple[ClientConnection, str]:
    ws = await connect(f"ws://{HOST}:{port}/", **_from(source))
    hello = {"type": "hello", "protocol": 1, "id": 1, "table": table, "name": name, "players": 3}
    return ws, kind(await send(ws, json.dumps(hello)))


async def confusables(port: int, source: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for table, first, second in (("scam", "Scam", "Scarn"), ("pay", "Paypal", "PayPaI")):
        one, _ = await seated(port, table, first, source)
        two, answer = await seated(port, table, second, source)
        found[f"{second} beside {first}"] = answer
        await one.close()
        await two.close()
    return found


PROBES = {
    "rebinding": rebinding,
    "repeated": repeated,
    "methods": methods,
    "dup-keys": dup_keys,
    "confusables": confusables,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "http.db")
        server.start()
        try:
            for name, probe in PROBES.items():
                try:
                    results[name] = asyncio.run(probe(server.port))
                except Exception as exc:  # (an old server may close instead of answering)
                    results[name] = f"failed: {type(exc).__name__}: {exc}"
        finally:
            server.stop()
        assert server.proc is not None and server.proc.stderr is not None
        log = server.proc.stderr.read().decode(errors="replace")
    results["server log: tracebacks"] = log.count("Traceback")
    results["server log: lines"] = len(log.splitlines())
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        for name, found in results.items():
            print(f"{name}: {found}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
