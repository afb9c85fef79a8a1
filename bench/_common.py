"""Shared helpers for the server benchmarks: a server subprocess, free ports, memory and CPU
of a process, the open-files limit, and a client session's messages over one websocket."""

from __future__ import annotations

import asyncio
import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

from tyros_client.notices import Notice
from tyros_client.session import ClientSession
from websockets.asyncio.client import ClientConnection


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


ONE_ADDRESS_CROWD = (
    "--max-connections",
    "4096",
    "--max-per-address",
    "4096",
    "--address-rate",
    "0",
    "--tables-per-minute",
    "100000",
    "--max-tables",
    "100000",
    "--waiting-tables",
    "100000",
    "--spectators-per-address",
    "100000",
    "--connection-rate",
    "0",
)
"""Server options for a benchmark whose clients all come from one loopback address: the
bounds per address guard a server against one machine, and here one machine is everyone."""


def profile_args() -> list[str]:
    """``TYROS_BENCH_PROFILE=FILE`` runs the server under cProfile, written to FILE on stop."""
    target = os.environ.get("TYROS_BENCH_PROFILE")
    return ["-m", "cProfile", "-o", target] if target else []


def server_args() -> list[str]:
    """How the server is started: ``-m tyros_server.cli``, or on a slow disk whose every
    commit waits ``TYROS_BENCH_COMMIT_MS`` milliseconds (``slow_disk.py``)."""
    delay = os.environ.get("TYROS_BENCH_COMMIT_MS")
    if delay:
        return [str(Path(__file__).parent / "slow_disk.py"), delay]
    return ["-m", "tyros_server.cli"]


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
                *profile_args(),
                *server_args(),
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
        return None if self.proc is None else process_status_kib(self.proc.pid, "VmHWM")

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


def process_status_kib(pid: int, field: str) -> int | None:
    """A ``kB`` field of ``/proc/PID/status`` (``VmRSS``, ``VmHWM``...); None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def process_cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time a process has used so far (``/proc/PID/stat``)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float | None:
    """CPU seconds every process on the machine has used so far (all cores, ``/proc/stat``)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


class RssSampler:
    """Samples a process's resident set (``VmRSS``) in a thread, keeping the peak."""

    def __init__(self, pid: int, interval: float = 0.05) -> None:
        self.pid = pid
        self.interval = interval
        self.peak_kib = 0
        self.last_kib = 0
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rss-sampler", daemon=True)

    def start(self) -> RssSampler:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            rss = process_status_kib(self.pid, "VmRSS")
            if rss is not None:
                self.last_kib = rss
                self.peak_kib = max(self.peak_kib, rss)
                self.samples += 1
            self._stop.wait(self.interval)


def raise_open_files_limit() -> tuple[int, int]:
    """Raise this process's soft limit of open files to the hard limit; (old soft, new soft)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft, soft
        return soft, target
    return soft, soft


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def cpu_note() -> str:
    return f"{os.cpu_count()} cpus"


async def session_notices(ws: ClientConnection, session: ClientSession) -> AsyncIterator[Notice]:
    """Join on ``ws`` and yield each notice the session passes on; what the caller queues
    (``session.send_action``) goes out after each notice, and due retries on time."""

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
        for notice in session.receive(frame):
            yield notice
            await flush()


def summary_ms(values: list[float]) -> dict[str, float | None]:
    ms = [v * 1000 for v in values]
    if not ms:
        return {"p50": None, "p99": None, "max": None}
    return {
        "p50": round(percentile(ms, 50), 1),
        "p99": round(percentile(ms, 99), 1),
        "max": round(max(ms), 1),
    }


Counters = Counter[str]
"""A tally of outcomes by name (an attack's, a load's)."""
