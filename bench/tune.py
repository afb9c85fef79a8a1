"""Trying a bot's settings by games: one seat plays a level with some of its settings or
of the bots' constants changed, three seats an opponent, on the games of a ladder match
(``bench/ladder.py --table``: the same seeds, seats rotated), and each game is read beside
the same game played without the change, so that much of the deal's luck cancels.

    python bench/tune.py --level normal --against normal --games 400 --seed 777 --jobs 2 \\
        --results base.jsonl                                  # the games as they are
    python bench/tune.py --level normal --against normal --games 400 --seed 777 --jobs 2 \\
        --set evaluate.AFFORDABLE_NOW=0.95 --results an95.jsonl --beside base.jsonl
    python bench/tune.py --level hard --against ismcts-150 --games 100 --seed 104729 \\
        --set hand_weight=0.7 --results hw07.jsonl \\
        --beside bench/ladder/hard-vs-ismcts-150.jsonl       # a ladder match's own games

``--set NAME=VALUE`` (as often as wanted): a name with a dot is a module constant of
``tyros_client.bots`` (``evaluate.AFFORDABLE_NOW``), changed in the changed seat's calls
only (the worker swaps it in around each of that bot's calls and back: its opponents see
the shipped value; compiled modules read their constants at run time too); a plain name is
one of the level's options (``hand_weight``, ``rollout_depth``). The changed seat of game
``g`` is seat ``g % 4``, as in a match. Each game is one line of ``--results`` (resumed like
the ladder's); ``--beside`` reads a file of the unchanged games (this script's, or a
ladder match of the same seed and setup, the level in seat ``g % 4``) and reports, over the
games both have, the changed seat's wins, meetings won and margin (its score less the mean of the
others') against the unchanged one's, and the mean difference of the margin game by game
with its standard error.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import statistics
import sys
from collections.abc import Iterable, Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from tyros_client import arena
from tyros_client.bots import Bot, make_bot
from tyros_client.bots.levels import LEVELS, reproducible

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ladder  # (beside this file)

CHANGED = "changed"
"""The changed seat's entrant name in ``--results``."""
PLAYERS = 4


def parse_setting(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` (the value JSON, or else a string).

    >>> parse_setting("evaluate.AFFORDABLE_NOW=0.95"), parse_setting("value=learned")
    (('evaluate.AFFORDABLE_NOW', 0.95), ('value', 'learned'))
    """
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"not NAME=VALUE: {text!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def bots_constant(key: str) -> tuple[Any, str]:
    """The module of ``tyros_client.bots`` and the constant's name that ``module.NAME`` says
    (a ValueError if it has none such).

    >>> module, name = bots_constant("evaluate.AFFORDABLE_NOW")
    >>> module.__name__, name
    ('tyros_client.bots.evaluate', 'AFFORDABLE_NOW')
    """
    module_name, _, name = key.partition(".")
    module = importlib.import_module(f"tyros_client.bots.{module_name}")
    if not hasattr(module, name):
        raise ValueError(f"{module.__name__} has no {name}")
    return module, name


def entrant(name: str) -> tuple[str, dict[str, Any]]:
    """A level's strategy and reproducible options, or ``ismcts-N``: the search at ``N``
    iterations and its defaults.

    >>> entrant("ismcts-150"), entrant("normal")
    (('ismcts', {'iterations': 150}), ('greedy', {}))
    """
    if name.startswith("ismcts-") and name[7:].isdigit():
        return "ismcts", {"iterations": int(name[7:])}
    if name not in LEVELS:
        raise ValueError(f"unknown entrant {name!r}: a level or ismcts-N")
    return LEVELS[name].strategy, reproducible(name)


class Changed:
    """A bot whose calls run with some module constants changed (``patch``: ``module.NAME``
    -> value), put back after each call: a game plays one call at a time."""

    patch: dict[tuple[Any, str], Any]

    def __init__(self, inner: Bot, patch: dict[str, Any]) -> None:
        self.inner, self.seat = inner, inner.seat
        self.wants_events, self.wants_view = inner.wants_events, inner.wants_view
        self.patch = {bots_constant(key): v for key, v in patch.items()}

    def __getattr__(self, name: str) -> Any:
        # (what the arena asks of some bots, as ``omniscient`` and ``reveal``, is the inner's)
        return getattr(self.inner, name)

    def _swap(self, values: dict[tuple[Any, str], Any]) -> dict[tuple[Any, str], Any]:
        old = {(module, name): getattr(module, name) for module, name in values}
        for (module, name), value in values.items():
            setattr(module, name, value)
        return old

    def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
        old = self._swap(self.patch)
        try:
            return self.inner.choose(view, legal)
        finally:
            self._swap(old)

    def observe(self, event: dict[str, Any]) -> None:
        old = self._swap(self.patch)
        try:
            self.inner.observe(event)
        finally:
            self._swap(old)


def play(job: tuple[int, list[str], dict[str, Any]]) -> dict[str, Any]:
    """Game ``g`` with the changed seat at ``g % 4`` (in a worker process)."""
    game, seats, settings = job
    strategy, options = entrant(settings["level"])
    options = {**options, **settings["options"]}
    opponent = entrant(settings["against"])

    def seat_bot(name: str, seat: int, rng: random.Random, **_: Any) -> Any:
        if seat == game % PLAYERS:
            changed = make_bot(strategy, seat, rng, **options)
            return Changed(changed, settings["constants"]) if settings["constants"] else changed
        return make_bot(opponent[0], seat, rng, **opponent[1])

    vars(arena)["make_bot"] = seat_bot  # (the arena builds the bots of this worker's games)
    result = arena.play_game(
        [strategy if s == game % PLAYERS else opponent[0] for s in range(PLAYERS)],
        setup=arena.game_setup(settings["setup"], game, PLAYERS),
        seed=settings["seed"],
        game=game,
    )
    return {"game": game, "seats": seats, "scores": result.scores, "winners": result.winners}


def margin(line: dict[str, Any]) -> float:
    """The changed (or unchanged) seat's score less the mean of the others'."""
    seat, scores = line["game"] % PLAYERS, line["scores"]
    return float(scores[seat] - (sum(scores) - scores[seat]) / (len(scores) - 1))


def meetings_won(line: dict[str, Any]) -> int:
    seat, scores, winners = line["game"] % PLAYERS, line["scores"], line["winners"]
    return sum(
        scores[seat] > s or (scores[seat] == s and seat in winners)
        for other, s in enumerate(scores)
        if other != seat
    )


def compare(changed: Sequence[dict[str, Any]], unchanged: Iterable[dict[str, Any]]) -> str:
    """The report of ``--beside``: the games both files have, side by side.

    >>> a = [{"game": g, "scores": [60 + g, 50, 50, 50], "winners": [0]} for g in (0, 4)]
    >>> b = [{"game": g, "scores": [50, 60, 50, 50], "winners": [1]} for g in (0, 4, 8)]
    >>> print(compare(a, b))
    2 games: wins 2 against 0, meetings won 6 against 0 of 6, margin +12.00 against -3.33:
    +15.33 +/- 2.00 a game
    """
    before = {line["game"]: line for line in unchanged}
    pairs = [(line, before[line["game"]]) for line in changed if line["game"] in before]
    if not pairs:
        return "no game in both"
    sides = [[pair[i] for pair in pairs] for i in (0, 1)]
    won = [sum(line["game"] % PLAYERS in line["winners"] for line in side) for side in sides]
    met = [sum(meetings_won(line) for line in side) for side in sides]
    ours, theirs = ([margin(line) for line in side] for side in sides)
    differences = [a - b for a, b in zip(ours, theirs, strict=True)]
    spread = statistics.stdev(differences) / math.sqrt(len(pairs)) if len(pairs) > 1 else 0.0
    return (
        f"{len(pairs)} games: wins {won[0]} against {won[1]}, meetings won {met[0]} against "
        f"{met[1]} of {3 * len(pairs)}, margin {statistics.mean(ours):+.2f} against "
        f"{statistics.mean(theirs):+.2f}:\n{statistics.mean(differences):+.2f} +/- {spread:.2f} "
        "a game"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="hard", help="the changed seat's level (or ismcts-N)")
    parser.add_argument("--against", default="ismcts-150", help="the other seats' (the same)")
    parser.add_argument("--set", type=parse_setting, action="append", default=[], metavar="N=V")
    parser.add_argument("--games", type=int, default=100, help="games 0 to N-1 (default 100)")
    parser.add_argument("--seed", type=int, default=104729)
    parser.add_argument(
        "--setup", choices=("first", "variable", "mixed"), default="first", help="as the arena's"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--results", type=Path, required=True, help="one JSON line a game")
    parser.add_argument("--beside", type=Path, help="the unchanged games, to compare with")
    args = parser.parse_args(argv)
    settings = {
        "seed": args.seed,
        "setup": args.setup,
        "level": args.level,
        "against": args.against,
        "constants": {name: value for name, value in args.set if "." in name},
        "options": {name: value for name, value in args.set if "." not in name},
    }
    entrant(args.level), entrant(args.against)  # an unknown name stops here
    table = [CHANGED] + [args.against] * (PLAYERS - 1)
    lines, todo = ladder.games_to_play(args.results, settings, args.games)
    with Pool(args.jobs) as pool, args.results.open("a") as out:
        work = [(g, ladder.rotated(table, g), settings) for g in todo]
        for line in pool.imap_unordered(play, work):
            out.write(json.dumps({**line, "settings": settings}) + "\n")
            out.flush()
            lines.append(line)
            print(f"game {line['game']}: {line['scores']}", file=sys.stderr)
    if args.beside:
        print(compare(lines, ladder.read_results(args.beside)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
