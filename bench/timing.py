"""Time ISMCTS decisions from saved positions, with whichever tyros this interpreter has.

    python bench/timing.py POSITIONS.json ITERATIONS [OPTIONS]

``bench/bots.py speed`` writes the positions and runs this file under each interpreter it
compares (``--beside``), so that an older commit's search, installed in a venv of its own,
is timed on exactly the same decisions. It imports nothing but the ``ismcts`` bot, whose
interface every commit since the search began shares, and prints one JSON object: the
iterations, the CPU seconds they took and whether the search ran compiled (``setup.py``).
``OPTIONS``, a JSON object, are more of the bot's options (a level's: ``speed --level``),
which an older commit's bot may not have.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from tyros_client.bots import ismcts
from tyros_client.bots.ismcts import ISMCTSBot


def tupled(value: Any) -> Any:
    """An action read back from JSON: its lists tuples again."""
    return tuple(tupled(item) for item in value) if isinstance(value, list) else value


def compiled() -> bool:
    """Whether the search runs compiled: its module (``search``, or ``ismcts`` in the commits
    before it had one of its own) is an extension module."""
    try:
        from tyros_client.bots import search

        module: Any = search
    except ImportError:
        module = ismcts
    return not str(module.__file__).endswith(".py")


def time_searches(
    positions: list[dict[str, Any]], iterations: int, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One search of ``iterations`` from each position, the n-th seeded with n; CPU time."""
    total = 0
    cpu_seconds = 0.0
    for number, position in enumerate(positions):
        seat = position["seat"]
        bot = ISMCTSBot(
            seat, random.Random(number), **{**(options or {}), "iterations": iterations}
        )
        for event in position["events"]:
            bot.observe(event)
        legal = [tupled(action) for action in position["legal"]]
        start = time.process_time()
        bot.choose(position["view"], legal)
        cpu_seconds += time.process_time() - start
        total += int(bot.stats["iterations"])
    return {
        "positions": len(positions),
        "iterations": total,
        "cpu_seconds": round(cpu_seconds, 2),
        "iterations_per_cpu_second": round(total / cpu_seconds, 1),
        "cpu_seconds_a_decision": round(cpu_seconds / len(positions), 4),
        "compiled": compiled(),
        "python": sys.executable,
    }


def main(argv: list[str]) -> int:
    positions = json.loads(Path(argv[0]).read_text("utf-8"))
    options = json.loads(argv[2]) if len(argv) > 2 else None
    print(json.dumps(time_searches(positions, int(argv[1]), options)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
