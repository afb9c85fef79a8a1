"""The browser tests' fixtures: a server per test, one Chromium per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.web.harness import CHROMIUM, Server, playwright

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def browser() -> Iterator[Browser]:
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()
