"""The browser's page over https:// and wss://: ``tyros-server --certfile F --keyfile F`` with
the tests' own certificate, Chromium headless (told to accept that certificate), real bots.
Skipped, saying so, where no Chromium is found."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.harness import ERRORS, Server, join, needs_chromium, open_page, playwright

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = needs_chromium

DATA = Path(__file__).resolve().parent.parent / "data"
CERT, KEY = str(DATA / "localhost.pem"), str(DATA / "localhost.key")


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path, extra=("--certfile", CERT, "--keyfile", KEY), https=True)
    try:
        yield running
    finally:
        running.stop()


def test_a_game_starts_in_a_page_served_over_https(tls_server: Server, browser: Browser) -> None:
    assert tls_server.url.startswith("https://")
    page = open_page(browser, tls_server.url, ignore_https_errors=True)  # "connected": wss://
    assert page.evaluate("location.protocol") == "https:"
    join(page, "Pat", "secure", 3)
    tls_server.bots("secure", 2, 3, extra=("--cafile", CERT))
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#hand:not([hidden])")
    assert page.inner_text("#hand").startswith("Your hand:")
    assert ERRORS[page] == []


def test_plain_http_to_the_tls_port_gets_no_page(tls_server: Server, browser: Browser) -> None:
    # The server expects a TLS handshake: a plain request gets the connection closed, not a
    # byte of answer (no redirect to https:// either).
    with socket.create_connection(("127.0.0.1", tls_server.port), timeout=10) as plain_socket:
        plain_socket.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert plain_socket.recv(100) == b""
    plain = tls_server.url.replace("https://", "http://")
    page = browser.new_page()
    try:
        with pytest.raises(playwright.Error, match="ERR_EMPTY_RESPONSE"):
            page.goto(plain, timeout=10_000)
    finally:
        page.close()
    page = open_page(browser, tls_server.url, ignore_https_errors=True)  # and still serves
    assert ERRORS[page] == []
