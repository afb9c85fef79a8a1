"""Raw websocket frames, the attacker's side of bench/abuse.py and bench/abuse_lan.py: cheap,
and it reads only when it means to (no client library, never a JSON parse of what it only
counts)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import struct
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

HOST = "127.0.0.1"
STEP_TIMEOUT = 5.0
"""Seconds any one connect, handshake or answer may take before it counts as failed."""


# Raw websocket frames (the attacker's side: cheap, and it reads only when it means to) ---


OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x1, 0x2, 0x8, 0x9, 0xA


def client_frame(payload: bytes, opcode: int = OP_TEXT) -> bytes:
    """One final client frame, masked (with a zero key: the payload goes as it is)."""
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    return header + b"\0\0\0\0" + payload


def text_frame(message: dict[str, Any]) -> bytes:
    return client_frame(json.dumps(message, separators=(",", ":")).encode())


CLOSE_FRAME = client_frame(struct.pack("!H", 1000), OP_CLOSE)


def upgrade_request(port: int) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET / HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


class HandshakeRefused(Exception):
    """The server answered the upgrade request with something else than 101."""


class FrameParser:
    """Splits what a server sends (unmasked frames) into (opcode, payload)."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        self.buffer += data
        frames = []
        at, buffer = 0, self.buffer
        while len(buffer) - at >= 2:
            opcode, size = buffer[at] & 0x0F, buffer[at + 1] & 0x7F
            head = 2
            if size == 126:
                if len(buffer) - at < 4:
                    break
                size, head = struct.unpack_from("!H", buffer, at + 2)[0], 4
            elif size == 127:
                if len(buffer) - at < 10:
                    break
                size, head = struct.unpack_from("!Q", buffer, at + 2)[0], 10
            if len(buffer) - at < head + size:
                break
            frames.append((opcode, bytes(buffer[at + head : at + head + size])))
            at += head + size
        del buffer[:at]
        return frames


def close_code(payload: bytes) -> int:
    return int(struct.unpack("!H", payload[:2])[0]) if len(payload) >= 2 else 1005


class RawWebSocket:
    """A websocket client in a few lines: asyncio streams, the frames above, pongs."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.parser = FrameParser()
        self.close_code: int | None = None

    @classmethod
    async def open(cls, port: int, local_address: str) -> RawWebSocket:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(HOST, port, local_addr=(local_address, 0)), STEP_TIMEOUT
        )
        ws = cls(reader, writer)
        try:
            writer.write(upgrade_request(port))
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), STEP_TIMEOUT)
        except BaseException:
            ws.abort()
            raise
        if not head.startswith(b"HTTP/1.1 101"):
            ws.abort()
            raise HandshakeRefused(head.split(b"\r\n", 1)[0].decode(errors="replace"))
        return ws

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def frames(self, timeout: float | None) -> list[tuple[int, bytes]]:
        """The frames that one read brings (answering pings); [] with close_code set once
        the server has closed (a close frame, or the end of the stream)."""
        data = await asyncio.wait_for(self.reader.read(1 << 18), timeout)
        if not data:
            self.close_code = self.close_code or 1006
            return []
        frames = self.parser.feed(data)
        for opcode, payload in frames:
            if opcode == OP_PING:
                self.writer.write(client_frame(payload, OP_PONG))
            elif opcode == OP_CLOSE:
                self.close_code = close_code(payload)
        return frames

    async def first_text(self, timeout: float) -> bytes | None:
        """The next text frame (None if the server closed first)."""
        deadline = time.monotonic() + timeout
        while self.close_code is None:
            for opcode, payload in await self.frames(max(0.0, deadline - time.monotonic())):
                if opcode == OP_TEXT:
                    return payload
        return None

    def abort(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.transport.abort()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.write(CLOSE_FRAME)
        self.abort()


CODE_PATTERN = re.compile(rb'"code":\s*"([a-z_]+)"')
TYPE_PATTERN = re.compile(rb'"type":\s*"([a-z_]+)"')


def reply_kind(payload: bytes) -> str:
    """``welcome``, ``tables``, ``error:CODE``...: what a server message is, without parsing it."""
    kind = TYPE_PATTERN.search(payload)
    name = kind.group(1).decode() if kind else "?"
    if name == "error":
        code = CODE_PATTERN.search(payload)
        return f"error:{code.group(1).decode() if code else '?'}"
    return name


def describe(exc: BaseException) -> str:
    if isinstance(exc, HandshakeRefused):
        return f"handshake refused ({exc})"
    if isinstance(exc, asyncio.IncompleteReadError):
        return "closed during handshake"
    return type(exc).__name__
