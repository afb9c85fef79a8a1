"""The levels a player picks (``tyros-play --level``), and what each was measured to be.

Each level is a strategy and its options. A search's budget is a count of iterations, so
that what ``bench/ladder.py`` measured is exactly what a player meets, with a cap in
seconds that keeps a slower machine from making people wait longer than the level means.
The figures: docs/benchmarks.md, "The levels".
"""

from __future__ import annotations

import argparse
import random
from typing import Any, NamedTuple

from .base import Bot, make_bot

EASY_SLIP = 0.25
"""How often an ``easy`` bot plays a random option instead of its best (see
:meth:`.greedy.Greedy.slip`)."""


HARD_ITERATIONS = 150
"""A ``hard`` bot's search budget: about 0.1 s a decision (docs/benchmarks.md)."""
EXPERT_ITERATIONS = 1_200
"""An ``expert`` bot's: eight times ``hard``'s, about 0.5 s a decision, and measurably
stronger against ``hard`` (docs/benchmarks.md, "Toward an expert level")."""


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
    "expert": Level(
        "ismcts",
        {"iterations": EXPERT_ITERATIONS, "move_time": 1.5},
        f"the same search, {EXPERT_ITERATIONS:,} iterations a decision: about 0.5 s; one won "
        "35% of 100 games against three hard bots",
    ),
}
DEFAULT_LEVEL = "normal"


def reproducible(level: str) -> dict[str, Any]:
    """A level's options without its cap in seconds: the same choices on any machine.

    >>> reproducible("hard")
    {'iterations': 150}
    """
    return {k: v for k, v in LEVELS[level].options.items() if k != "move_time"}


def add_level_options(parser: argparse.ArgumentParser, strategies: list[str]) -> None:
    """``--level`` and, for experts, ``--strategy``: how ``tyros-play`` and ``tyros-bot``
    ask for their bots."""
    levels = "; ".join(f"{name}: {level.about}" for name, level in LEVELS.items())
    parser.add_argument(
        "--level",
        choices=sorted(LEVELS),
        default=DEFAULT_LEVEL,
        help=f"how strong the bots are (default: {DEFAULT_LEVEL}; {levels})".replace("%", "%%"),
    )
    parser.add_argument(
        "--strategy",
        default=None,
        choices=strategies,
        help="for experts: the bots' strategy by name (instead of --level; random plays at random)",
    )


def chosen(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The strategy and options that :func:`add_level_options`' arguments ask for.

    >>> chosen(argparse.Namespace(level="hard", strategy=None))
    ('ismcts', {'iterations': 150, 'move_time': 0.3})
    >>> chosen(argparse.Namespace(level="hard", strategy="random"))
    ('random', {})
    """
    if args.strategy is not None:
        return args.strategy, {}
    level = LEVELS[args.level]
    return level.strategy, dict(level.options)


def player(level: str, seat: int, rng: random.Random) -> Bot:
    """A bot of ``level`` for ``seat``: what the server's own bots are at a table created
    with that level (the ``tyros.strategies`` entry points ``easy`` ... ``expert``).

    >>> type(player("hard", 2, random.Random(1))).__name__
    'ISMCTSBot'
    """
    chosen_level = LEVELS[level]
    return make_bot(chosen_level.strategy, seat, rng, **chosen_level.options)


def easy(seat: int, rng: random.Random) -> Bot:
    return player("easy", seat, rng)


def normal(seat: int, rng: random.Random) -> Bot:
    return player("normal", seat, rng)


def hard(seat: int, rng: random.Random) -> Bot:
    return player("hard", seat, rng)


def expert(seat: int, rng: random.Random) -> Bot:
    return player("expert", seat, rng)
