"""Shared helpers for the server benchmarks: a server subprocess, free ports, memory, and
a client session's messages over one websocket."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from tyros_client.session import ClientSession
from websockets.asyncio.client import ClientConnection


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``tyros-server`` in a subprocess on loopback, killable at will."""

    def __init__(self, db: Path, port: int | None = None, *extra: str) -> None:
        self.db = db
        self.port = port or free_port()
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 15.0) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tyros_server.cli",
                "--allow-seed",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--db",
                str(self.db),
                "--log-level",
                "WARNING",
                *self.extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"server exited: {self.proc.stderr.read().decode()[-2000:]}"
                    if self.proc.stderr
                    else "server exited"
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def peak_memory_kib(self) -> int | None:
        """The process's peak resident set (VmHWM), while it runs."""
        if self.proc is None:
            return None
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        except OSError:
            return None
        return None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def cpu_note() -> str:
    return f"{os.cpu_count()} cpus"


async def session_messages(
    ws: ClientConnection, session: ClientSession
) -> AsyncIterator[dict[str, Any]]:
    """Join on ``ws`` and yield each message the session passes on; what the caller queues
    (``session.send_action``) goes out after each message, and due retries on time."""

    async def flush() -> None:
        for frame in session.frames_to_send():
            await ws.send(frame)

    session.connection_made()
    await flush()
    while True:
        at = session.next_timer()
        try:
            frame = await asyncio.wait_for(
                ws.recv(), None if at is None else max(0.0, at - session.clock())
            )
        except TimeoutError:  # an action the server could not take yet is due again
            session.tick()
            await flush()
            continue
        for message in session.receive(frame):
            yield message
            await flush()
