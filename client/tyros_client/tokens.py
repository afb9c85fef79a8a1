"""Seat tokens kept on disk, so that a restarted client or bot takes its seat back.

The terminal client keeps them in ``tokens.json`` in the user's data directory
(``$XDG_DATA_HOME/tyros/``, else ``~/.local/share/tyros/``), ``tyros-bot`` in
``bot-tokens.json``; each is keyed by server address, table and player name.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from .paths import data_dir, locked, write_private_json

log = logging.getLogger("tyros.client")


class TokenStore:
    """Seat tokens on disk, readable by the user only; saved under a lock, since several
    clients and bots (``bot-tokens.json``) may share one file.

    ``exclusive`` (the bots'): a token also records the process that plays its seat, and
    another process does not take it while that one runs (a second ``tyros-bot`` for the
    same table would take the first one's seats back, one by one, instead of filling the
    empty ones); a terminal client's second window does take its seat, on purpose."""

    def __init__(self, path: Path | None = None, *, exclusive: bool = False) -> None:
        self.path = path or data_dir() / "tokens.json"
        self.exclusive = exclusive

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
        """The seat's token, if it is this program's to take (see ``exclusive``)."""
        entry = self._read().get(key)
        token = entry.get("token") if isinstance(entry, dict) else None
        if not isinstance(token, str) or self.held_elsewhere(key):
            return None
        return token

    def held_elsewhere(self, key: str) -> bool:
        """Whether another running process plays the seat of ``key`` (``exclusive`` only)."""
        entry = self._read().get(key)
        pid = entry.get("pid") if isinstance(entry, dict) else None
        return self.exclusive and isinstance(pid, int) and pid != os.getpid() and _alive(pid)

    def save(self, key: str, token: str, seat: int | None) -> None:
        with locked(self.path):
            data = self._read()
            data[key] = {"token": token, "seat": seat}
            if self.exclusive:
                data[key]["pid"] = os.getpid()
            self._write(data)

    def forget(self, key: str) -> None:
        with locked(self.path):
            data = self._read()
            if data.pop(key, None) is not None:
                self._write(data)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: alive
        return True
    return True
