"""The server's worker processes (decisions, records) end with it."""

from __future__ import annotations

import os
import threading
import time

PARENT_LOOK_SECONDS = 1.0
"""How often a worker process looks whether the server is still there."""


def outlive_not(parent: int) -> None:
    """In a worker process: end it once the server (``parent``) is gone. A server killed
    outright (SIGKILL) stops nothing of its own, and the process would wait for work for
    ever."""
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_LOOK_SECONDS)
    os._exit(0)
