"""Where the clients keep their files (seat tokens, pinned certificates), and how they
write them: whole or not at all, readable by the user only."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # not on Windows: there, concurrent writers may still lose an update
    fcntl = None  # type: ignore[assignment]


def data_dir() -> Path:
    """Where tyros keeps its files for this user."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tyros"


def write_private_json(path: Path, data: dict[str, Any]) -> None:
    """Replace ``path`` with ``data`` as JSON, mode 0600 (raises ``OSError``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")  # one each
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1, sort_keys=True)
    os.replace(temp, path)  # a crash mid-write leaves the old file, never half a new one


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock for a read-modify-write of ``path`` (by a file beside it), so
    that two clients or bots saving their seat tokens at once do not lose one of them.
    Without a lock file (a read-only directory) the update goes ahead unlocked."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # (closing releases the lock)
