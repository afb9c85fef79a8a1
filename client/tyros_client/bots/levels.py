"""The levels a player picks (``tyros-play --level``), and what each was measured to be.

Each level is a strategy and its options. A search's budget is a count of iterations, so
that what ``bench/ladder.py`` measured is exactly what a player meets, with a cap in
seconds that keeps a slower machine from making people wait longer than the level means.
The figures: docs/benchmarks.md, "The levels".
"""

from __future__ import annotations

from typing import Any, NamedTuple

EASY_SLIP = 0.25
"""How often an ``easy`` bot plays a random option instead of its best (see
:meth:`.greedy.Greedy.slip`)."""


HARD_ITERATIONS = 150
"""A ``hard`` bot's search budget: more was not told apart from it (docs/benchmarks.md)."""


class Level(NamedTuple):
    strategy: str
    options: dict[str, Any]
    about: str
    """What it means to a player, as measured."""


LEVELS: dict[str, Level] = {
    "easy": Level(
        "greedy",
        {"slip": EASY_SLIP},
        f"greedy bots that play a random one of their options in about one card action or "
        f"expansion in {round(1 / EASY_SLIP)}, a beginner's match",
    ),
    "normal": Level(
        "greedy",
        {},
        "greedy bots: one move ahead, and they negotiate (one won 72% of 200 games against "
        "three easy bots)",
    ),
    "hard": Level(
        "ismcts",
        {"iterations": HARD_ITERATIONS, "move_time": 0.3},
        f"search bots (ISMCTS, {HARD_ITERATIONS} iterations a decision: about 0.1 s; one won "
        "71.5% of 200 games against three normal bots)",
    ),
}
DEFAULT_LEVEL = "normal"


def reproducible(level: str) -> dict[str, Any]:
    """A level's options without its cap in seconds: the same choices on any machine.

    >>> reproducible("hard")
    {'iterations': 150}
    """
    return {k: v for k, v in LEVELS[level].options.items() if k != "move_time"}
