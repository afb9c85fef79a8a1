"""Seat tokens kept on disk, so that a restarted client or bot takes its seat back.

The terminal client keeps them in ``tokens.json`` in the user's data directory
(``$XDG_DATA_HOME/tyros/``, else ``~/.local/share/tyros/``), ``tyros-bot`` in
``bot-tokens.json``; each is keyed by server address, table and player name.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from .paths import data_dir, locked, write_private_json

log = logging.getLogger("tyros.client")


class TokenStore:
    """Seat tokens on disk, readable by the user only; saved under a lock, since several
    clients and bots (``bot-tokens.json``) may share one file."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / "tokens.json"

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
        try:
            write_private_json(self.path, data)
        except OSError as exc:
            log.warning("cannot store the seat token in %s: %s", self.path, exc)

    def load(self, key: str) -> str | None:
        entry = self._read().get(key)
        token = entry.get("token") if isinstance(entry, dict) else None
        return token if isinstance(token, str) else None

    def save(self, key: str, token: str, seat: int | None) -> None:
        with locked(self.path):
            data = self._read()
            data[key] = {"token": token, "seat": seat}
            self._write(data)

    def forget(self, key: str) -> None:
        with locked(self.path):
            data = self._read()
            if data.pop(key, None) is not None:
                self._write(data)
