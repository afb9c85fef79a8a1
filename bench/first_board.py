"""First board in the browser: how long the page takes, in headless Chromium on loopback,
from the start of its navigation to the board's SVG on screen, while a game is under way.

One ``tyros-server`` (a subprocess on loopback, ``--takeover off`` so that the tables left
by earlier runs stay still) serves the page; Chromium (``--chromium``, ``TYROS_CHROMIUM`` or
the ``chromium`` on the PATH, driven by Playwright) opens it in a fresh context each run (no
cache, no stored seat). Two flows, ``--runs`` times each, after ``--warmup`` runs not
counted:

  watch  4 random bots (``bench/load.py``'s, in a thread of this process) play a 4-player
         table, each thinking ``--think-ms`` (0.5x-1.5x) before it acts, as people do (3
         greedy bots that answer at once end a game in about 2 s: nothing left to watch);
         while that game is under way the page opens, waits for the table list and clicks
         the table's Watch (when a game ends the bots start another, at a new table)
  join   2 greedy bots (``tyros-bot``, a subprocess, stopped after the run) wait at a new
         3-player table; the page opens, waits for "connected", fills the lobby form (name,
         table, 3 players) and joins as the third player, which starts the game

Every time is read on the page's own clock (``performance.now()``, 0 at the navigation's
start) by a script installed before the page's own (a ``MutationObserver``): the status
"connected", the first row of the table list, the click (or submit), the ``#board svg`` in
the document and the next animation frame after it (the board on screen: the figure
reported). The time from the click to the board is the page's and the server's part alone
(Playwright's own steps before the click, a few ms each, are in the total). Also reported:
DOMContentLoaded and the load event (Navigation Timing), and the bytes of the page's files
(Resource Timing: each file's transfer size, headers included; nothing is compressed).

    python bench/first_board.py                      # 20 runs of each flow
    python bench/first_board.py --runs 50 --flow join --json
    python bench/first_board.py --flow watch --think-ms 100

CPU: the server, the bots, Chromium and this process share the machine (2 cores on the
project's): the CPU the whole machine used meanwhile (other work on it included) and its
load average are reported beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

from playwright.sync_api import Browser, sync_playwright
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from _common import (
    ONE_ADDRESS_CROWD,
    ServerProcess,
    cpu_note,
    machine_busy_seconds,
    percentile,
)
from load import Stats, bot

MARKS = """
(() => {
  const marks = (window.__firstBoard = {});
  const look = () => {
    const now = performance.now();
    if (marks.connected === undefined) {
      const status = document.getElementById("status");
      if (status && status.textContent === "connected") marks.connected = now;
    }
    if (marks.listed === undefined && document.querySelector("#tables tbody tr")) {
      marks.listed = now;
    }
    if (marks.board === undefined && document.querySelector("#board svg")) {
      marks.board = now;
      requestAnimationFrame(() => (marks.frame = performance.now()));
    }
  };
  new MutationObserver(look).observe(document, {
    childList: true, subtree: true, characterData: true,
  });
  for (const kind of ["click", "submit"]) {
    document.addEventListener(kind, () => (marks.action ??= performance.now()), true);
  }
})();
"""
"""Installed before the page's own script: the moments of each run, on the page's clock."""

TIMING = """
() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const files = [nav, ...performance.getEntriesByType("resource")].map((e) => ({
    name: new URL(e.name).pathname === "/" ? "/ (index.html)" : new URL(e.name).pathname,
    transfer: e.transferSize,
    body: e.encodedBodySize,
  }));
  return {
    marks: window.__firstBoard,
    dcl: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    files,
  };
}
"""
"""Read once the board is on screen: the marks, Navigation Timing, Resource Timing."""

TIMEOUT_MS = 30_000


def tables(port: int) -> list[dict[str, Any]]:
    """The server's table list, asked over a websocket of its own."""
    with connect(f"ws://127.0.0.1:{port}/", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "list_tables", "id": 1}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message.get("type") == "tables":
                return list(message["tables"])


class WatchedTables:
    """Games of 4 random bots that think before they act, one after the other, in a thread
    of their own: a table under way to watch."""

    def __init__(self, port: int, think: float) -> None:
        self.port = port
        self.think = think
        self.games = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.task: asyncio.Task[None] | None = None
        self.thread = threading.Thread(target=self._run, name="watched-tables", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            asyncio.run(self._games())

    async def _games(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        url, stats = f"ws://127.0.0.1:{self.port}", Stats()
        while True:
            table, rng = f"watched-{self.games}", Random(self.games)
            seats = [
                bot(url, table, f"p{seat}", Random(rng.random()), stats, self.think, 1e12)
                for seat in range(4)
            ]
            await asyncio.gather(*seats)
            self.games += 1

    def playing(self, timeout: float = 30) -> str:
        """The name of a table whose game is under way."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for row in tables(self.port):
                if row["name"].startswith("watched-") and row["started"] and not row["finished"]:
                    return str(row["name"])
            time.sleep(0.05)
        raise RuntimeError("no table of bots under way")

    def stop(self) -> None:
        if self.loop is not None and self.task is not None:
            self.loop.call_soon_threadsafe(self.task.cancel)
        self.thread.join(10)


def seat_bots(port: int, table: str, count: int, seed: int, log: Path) -> subprocess.Popen[bytes]:
    """``count`` greedy bots at a new 3-player ``table``, once they are all seated."""
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tyros_client.botclient",
                f"127.0.0.1:{port}",
                "--name",
                "bot",
                "--table",
                table,
                "--count",
                str(count),
                "--players",
                "3",
                "--strategy",
                "greedy",
                "--seed",
                str(seed),
                "--table-seed",
                str(seed),
                "--quiet",
                "--forget",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for row in tables(port):
            if row["name"] == table and sum(1 for s in row["seats"] if s.get("name")) >= count:
                return proc
        if proc.poll() is not None:
            raise RuntimeError(f"the bots exited: {log.read_text()[-2000:]}")
        time.sleep(0.05)
    proc.terminate()
    raise RuntimeError(f"the bots never sat at {table}")


def one_run(browser: Browser, url: str, flow: str, table: str) -> dict[str, Any]:
    """Open the page in a fresh context, watch or join ``table``; its timings."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        context.add_init_script(MARKS)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url, wait_until="commit")
        if flow == "watch":
            page.click(f"#tables tr:has(td:text-is('{table}')) button:text('Watch')")
        else:
            page.wait_for_selector("#status:text('connected')")
            page.fill("#name", "Pat")
            page.fill("#table-name", table)
            page.select_option("#players", "3")
            page.click("#join button[type=submit]")
        page.wait_for_function("() => window.__firstBoard?.frame !== undefined")
        page.wait_for_load_state("load")
        timing: dict[str, Any] = page.evaluate(TIMING)
        if errors:
            raise RuntimeError(f"script errors on the page: {errors}")
        return timing
    finally:
        context.close()


def summary(values: list[float]) -> dict[str, float]:
    return {
        "median": round(statistics.median(values), 1),
        "p90": round(percentile(values, 90), 1),
        "max": round(max(values), 1),
    }


FIGURES: dict[str, Callable[[dict[str, Any]], float]] = {
    "board on screen": lambda t: t["marks"]["frame"],
    "board in the document": lambda t: t["marks"]["board"],
    "click to board on screen": lambda t: t["marks"]["frame"] - t["marks"]["action"],
    "connected": lambda t: t["marks"]["connected"],
    "table list shown": lambda t: t["marks"]["listed"],
    "DOMContentLoaded": lambda t: t["dcl"],
    "load event": lambda t: t["load"],
}
"""What is reported, each from one run's timings (ms on the page's clock)."""


def run_flow(
    browser: Browser,
    port: int,
    flow: str,
    runs: int,
    warmup: int,
    think: float,
    log: Path,
) -> dict[str, Any]:
    url = f"http://127.0.0.1:{port}/"
    timings: list[dict[str, Any]] = []
    watched = WatchedTables(port, think) if flow == "watch" else None
    try:
        for number in range(warmup + runs):
            if watched is not None:
                timing = one_run(browser, url, flow, watched.playing())
            else:
                table = f"{flow}-{number}"
                bots = seat_bots(port, table, 2, number + 1, log)
                try:
                    timing = one_run(browser, url, flow, table)
                finally:
                    bots.terminate()
                    bots.wait(10)
            if number >= warmup:
                timings.append(timing)
    finally:
        if watched is not None:
            watched.stop()
    files = {f["name"]: f for f in timings[-1]["files"]}
    return {
        "flow": flow,
        "runs": runs,
        "games_watched": None if watched is None else watched.games + 1,
        "ms": {name: summary([float(of(t)) for t in timings]) for name, of in FIGURES.items()},
        "board_on_screen_ms": [round(float(t["marks"]["frame"]), 1) for t in timings],
        "files": [
            {"path": path, "transfer": f["transfer"], "body": f["body"]}
            for path, f in files.items()
        ],
        "bytes": sum(int(f["transfer"]) for f in files.values()),
    }


def find_chromium(given: str | None) -> str:
    found = (
        given
        or os.environ.get("TYROS_CHROMIUM")
        or shutil.which("chromium")
        or shutil.which("chromium-browser")
    )
    if found is None:
        raise SystemExit("no Chromium found: give --chromium PATH")
    return found


def run(flows: list[str], runs: int, warmup: int, think: float, chromium: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            Path(tmp) / "first.db", None, *ONE_ADDRESS_CROWD, "--takeover", "off"
        )
        server.start()
        busy_before, started = machine_busy_seconds(), time.monotonic()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                try:
                    results = [
                        run_flow(
                            browser, server.port, flow, runs, warmup, think, Path(tmp) / "bots.log"
                        )
                        for flow in flows
                    ]
                finally:
                    browser.close()
        finally:
            server.stop()
        seconds = time.monotonic() - started
        busy_after = machine_busy_seconds()
    busy = (
        None
        if busy_before is None or busy_after is None
        else round((busy_after - busy_before) / seconds, 2)
    )
    return {
        "cpus": os.cpu_count(),
        "seconds": round(seconds, 1),
        "machine_busy_cores": busy,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "flows": results,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=20, help="measured runs of each flow")
    parser.add_argument("--warmup", type=int, default=1, help="runs first, not counted")
    parser.add_argument(
        "--flow", action="append", choices=["watch", "join"], help="(default: both)"
    )
    parser.add_argument(
        "--think-ms", type=float, default=500, help="the watched bots' thought (default 500)"
    )
    parser.add_argument("--chromium", metavar="PATH", help="the Chromium to drive")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(
        args.flow or ["watch", "join"],
        args.runs,
        args.warmup,
        args.think_ms / 1000,
        find_chromium(args.chromium),
    )
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"{cpu_note()}; {result['seconds']} s; the machine used {result['machine_busy_cores']} "
        f"cores meanwhile (everything on it); load average {result['load_average']}"
    )
    for flow in result["flows"]:
        watched = f" ({flow['games_watched']} games)" if flow["games_watched"] else ""
        print(f"\n{flow['flow']}{watched}: {flow['runs']} runs, ms from the navigation's start")
        print(f"  {'':26} {'median':>8} {'p90':>8} {'max':>8}")
        for name, figures in flow["ms"].items():
            print(
                f"  {name:26} {figures['median']:8.1f} {figures['p90']:8.1f} {figures['max']:8.1f}"
            )
        print(f"  board on screen, each run: {flow['board_on_screen_ms']}")
        files = ", ".join(f"{f['path']} {f['transfer']} ({f['body']} body)" for f in flow["files"])
        print(f"  bytes transferred: {flow['bytes']} ({files})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
