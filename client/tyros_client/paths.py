"""Where the clients keep their files (seat tokens, pinned certificates), and how they
write them: whole or not at all, readable by the user only."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def data_dir() -> Path:
    """Where tyros keeps its files for this user."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tyros"


def write_private_json(path: Path, data: dict[str, Any]) -> None:
    """Replace ``path`` with ``data`` as JSON, mode 0600 (raises ``OSError``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_suffix(".tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
    os.replace(temp, path)  # a crash mid-write leaves the old file, never half a new one
