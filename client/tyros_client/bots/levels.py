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


HARD_ITERATIONS = 1_000
"""A ``hard`` bot's search budget: with its answers at :data:`ANSWER_ITERATIONS`, about
0.1 s a decision compiled (``pip install .``), 0.2 s in plain Python (docs/benchmarks.md,
"The budget the quick answers freed")."""
EXPERT_ITERATIONS = 5_000
"""An ``expert`` bot's: five times ``hard``'s, about 0.5 s a decision compiled (1 s in plain
Python). Above a seat of ``hard`` in 171 of 300 meetings, +46 [+2, +100] in their match of 100 games
(docs/benchmarks.md, "``expert`` at five times ``hard``'s budget")."""
ANSWER_ITERATIONS = 150
"""The searching levels' budget for an answer to an offer: greedy's lead decides most
answers, and 150 iterations agree with a search of 4,000 as often as 600 do, in a quarter
of the time; among programs the first seats to accept get the trade (docs/benchmarks.md,
"Quick answers")."""
ROOT_PRIOR = 1.0
"""How much the searching levels follow greedy's preference among their options (the
search's ``root_prior``; docs/benchmarks.md, "A prior at the root" and "The prior in every
phase")."""
ROOT_WIDTH = 16
"""How many of greedy's best card actions (or expansions) the searching levels consider:
twice the search's default, affordable once the prior keeps the weaker ones from taking
visits."""


class Level(NamedTuple):
    strategy: str
    options: dict[str, Any]
    about: str
    """What it means to a player."""
    rating: str
    """Its rating on the ladder (``bench/ladder.py --fit``: the Elo scale, ``easy`` at 0, a
    95% interval), as the README's table gives it."""


LEVELS: dict[str, Level] = {
    "easy": Level(
        "greedy",
        {"slip": EASY_SLIP},
        f"greedy bots that play a random one of their options in about one card action or "
        f"expansion in {round(1 / EASY_SLIP)}, a beginner's match",
        "0",
    ),
    "normal": Level(
        "greedy",
        {},
        "greedy bots: one move ahead, and they negotiate (one won 72% of 200 games against "
        "three easy bots)",
        "+317 [+275, +360]",
    ),
    "hard": Level(
        "ismcts",
        {
            "iterations": HARD_ITERATIONS,
            "answer_iterations": ANSWER_ITERATIONS,
            "root_prior": ROOT_PRIOR,
            "root_width": ROOT_WIDTH,
            "prior_every_phase": True,
            "move_time": 0.5,
        },
        f"search bots (ISMCTS led by greedy's preferences, {HARD_ITERATIONS:,} iterations a "
        f"decision, {ANSWER_ITERATIONS} for an answer to an offer: about 0.1 s a decision "
        "compiled; one won 46% of 200 games against three of the search at 150 iterations without "
        "that lead, and 45% of 200 over the network against three of that search as "
        "released on 2026-12-02)",
        "+728 [+664, +805]",
    ),
    "expert": Level(
        "ismcts",
        {
            "iterations": EXPERT_ITERATIONS,
            "answer_iterations": ANSWER_ITERATIONS,
            "root_prior": ROOT_PRIOR,
            "root_width": ROOT_WIDTH,
            "prior_every_phase": True,
            "move_time": 2.5,
        },
        f"the same search, {EXPERT_ITERATIONS:,} iterations a decision: about 0.5 s a decision "
        "compiled (above a seat of hard in 171 of 300 meetings, 100 games: +46 [+2, +100] in "
        "their match)",
        "+773 [+689, +861]",
    ),
}
DEFAULT_LEVEL = "normal"


def reproducible(level: str) -> dict[str, Any]:
    """A level's options without its cap in seconds: the same choices on any machine.

    >>> reproducible("hard")  # doctest: +NORMALIZE_WHITESPACE
    {'iterations': 1000, 'answer_iterations': 150, 'root_prior': 1.0, 'root_width': 16,
     'prior_every_phase': True}
    """
    return {k: v for k, v in LEVELS[level].options.items() if k != "move_time"}


def add_level_options(parser: argparse.ArgumentParser, strategies: list[str]) -> None:
    """``--level`` and, for experts, ``--strategy``: how ``tyros-play`` and ``tyros-bot``
    ask for their bots."""
    levels = "; ".join(
        f"{name}: {level.about}, rated {level.rating}" for name, level in LEVELS.items()
    )
    parser.add_argument(
        "--level",
        choices=sorted(LEVELS),
        default=DEFAULT_LEVEL,
        help=f"how strong the bots are (default: {DEFAULT_LEVEL}; {levels}; ratings: the "
        "bots' ladder, on the Elo scale with easy at 0, 95% intervals; see the README)".replace(
            "%", "%%"
        ),
    )
    parser.add_argument(
        "--strategy",
        default=None,
        choices=strategies,
        help="for experts: the bots' strategy by name (instead of --level; random plays at random)",
    )


def chosen(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The strategy and options that :func:`add_level_options`' arguments ask for.

    >>> chosen(argparse.Namespace(level="hard", strategy=None))  # doctest: +NORMALIZE_WHITESPACE
    ('ismcts', {'iterations': 1000, 'answer_iterations': 150, 'root_prior': 1.0,
                'root_width': 16, 'prior_every_phase': True, 'move_time': 0.5})
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
