"""What the browser tests share: a real server with real bots on loopback, pages opened in
Chromium (headless, driven by Playwright), and a policy that plays through a page's own
buttons. Skipped, saying so, where no Chromium is found."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.server.conftest import free_port

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
CHROMIUM = (
    os.environ.get("TYROS_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
)
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="no Chromium found: the browser tests are skipped (.ci/run installs it)",
)
if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page
ERRORS: dict[Page, list[str]] = {}
"""The script errors each page met (none is allowed)."""
TIMEOUT_MS = 30_000
"""Milliseconds any awaited condition may take (a bound that only catches a stuck test)."""


class Server:
    """``tyros-server`` in a subprocess on loopback, and bots seated with ``tyros-bot``.
    ``extra``: more options for the server; ``https``: its page is served as ``https://``
    (``extra`` then names a certificate and key with ``--certfile`` and ``--keyfile``)."""

    def __init__(self, tmp: Path, extra: Sequence[str] = (), https: bool = False) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.url = f"{'https' if https else 'http'}://127.0.0.1:{self.port}/"
        self.address = f"wss://127.0.0.1:{self.port}" if https else f"127.0.0.1:{self.port}"
        """What the bots are given to reach the server (``wss://`` if it serves TLS)."""
        self.procs: list[subprocess.Popen[bytes]] = []
        self.proc = self.run(
            "tyros_server.cli", "--port", str(self.port), "--db", str(tmp / "t.db"), *extra
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)

    def run(self, module: str, *args: str) -> subprocess.Popen[bytes]:
        with open(self.tmp / f"{module}-{len(self.procs)}.log", "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", module, *args], stdout=log, stderr=subprocess.STDOUT
            )
        self.procs.append(proc)
        return proc

    def bots(
        self, table: str, count: int, players: int, name: str = "bot", extra: Sequence[str] = ()
    ) -> None:
        """``count`` greedy bots at ``table``; ``extra``: more options for ``tyros-bot``
        (``--cafile F`` for a server with a certificate of its own)."""
        self.run(
            "tyros_client.botclient",
            self.address,
            "--name",
            name,
            "--table",
            table,
            "--count",
            str(count),
            "--players",
            str(players),
            "--strategy",
            "greedy",
            "--quiet",
            "--forget",
            *extra,
        )

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            proc.wait(10)


def open_page(
    browser: Browser,
    url: str,
    width: int = 1280,
    height: int = 800,
    ignore_https_errors: bool = False,
    ready: str = "#status:text('connected')",
) -> Page:
    """A new page at ``url``, once ``ready`` shows (by default: once it says it is
    connected). ``ignore_https_errors``: a certificate the browser does not trust (the
    tests' own) is accepted."""
    page = browser.new_page(
        viewport={"width": width, "height": height}, ignore_https_errors=ignore_https_errors
    )
    errors = ERRORS[page] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(url)
    page.wait_for_selector(ready)
    return page


def join(
    page: Page, name: str, table: str, players: int, bots: int = 0, level: str | None = None
) -> None:
    """Join (or create, with ``bots`` of the server's own at ``level``, else the form's
    default) ``table`` from the lobby's form."""
    page.fill("#name", name)
    page.fill("#table-name", table)
    page.select_option("#players", str(players))
    page.select_option("#bots", str(bots))
    if level is not None:
        page.select_option("#bot-level", level)
    page.click("#join button[type=submit]")
    page.wait_for_selector(f"#status:text('playing at table {table} as A')")


def play_on(page: Page, until: str, most: int = 800) -> int:
    """Click the page's own choices (pass when it may, else the first) until ``until``
    shows; the clicks made."""
    for clicks in range(most):
        if page.locator(until).count():
            return clicks
        page.wait_for_selector(f"#choices button:visible:not([disabled]), {until}")
        choices = page.locator("#choices button:visible:not([disabled])")
        if page.locator(until).count() or not choices.count():
            continue  # (both came with one update: nothing is clicked past ``until``)
        texts = choices.all_inner_texts()
        choice = texts.index("pass") if "pass" in texts else 0
        with contextlib.suppress(playwright.Error):  # the decision went while clicking
            choices.nth(choice).click(timeout=2_000)
    raise AssertionError(f"{until} never showed")


def axe_violations(page: Page) -> list[str]:
    """What axe-core (the copy the test extras install, with axe-playwright-python) finds
    wrong on the page as it is now: one line per rule broken, with the nodes that break it."""
    from importlib import resources

    script = (resources.files("axe_playwright_python") / "axe.min.js").read_text()
    page.evaluate(script)
    found = page.evaluate("async () => (await axe.run(document)).violations")
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:4]}" for v in found]
