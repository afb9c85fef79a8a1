"""The offline arena: bots play many games against each other with the engine, no server.

    tyros-arena --games 200 --players random,random,random,random --seed 1

Game ``g`` (counted from 0) puts the ``i``-th strategy of ``--players`` in seat
``(i + g) % players``, so every strategy plays every seat equally often over a
multiple of ``players`` games. Every seed (the engine's and each bot's) is
derived from ``--seed`` and the game number, so a run is reproducible: the same
arguments give the same results (the speed aside), and game ``g`` is the same
game whatever ``--games`` is. ``--setup mixed`` alternates first-game and
variable setups by blocks of ``players`` games (a full seat rotation each).

Scores: a shared win counts as a win for each winner, and a strategy that sits
in several seats adds up its wins over them; its win rate is wins per seat
played, with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tyros_rules import (
    GameState,
    IllegalActionError,
    Options,
    Phase,
    event_view,
    export_record,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)

from .bots import Bot, make_bot
from .bots.base import strategies as registered
from .games import ClusterUnavailable, Game, Played, play_all

SETUPS = ("first", "variable", "mixed")
MAX_ACTIONS = 100_000
"""A game still running after this many actions is taken to be stuck (a bot or engine bug)."""
Z95 = 1.959963984540054


# Seeds and seats -------------------------------------------------------------------


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from ``seed`` and ``parts``, the same in every process and Python.

    >>> derive_seed(1, "game", 0) == derive_seed(1, "game", 0)
    True
    >>> derive_seed(1, "game", 0) != derive_seed(1, "game", 1)
    True
    """
    text = "/".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def seat_order(strategies: Sequence[str], game: int) -> list[str]:
    """The strategy in each seat for game ``game``: strategy ``i`` sits in ``(i + game) % n``.

    >>> seat_order(["a", "b", "c"], 1)
    ['c', 'a', 'b']
    """
    n = len(strategies)
    seats = [""] * n
    for i, name in enumerate(strategies):
        seats[(i + game) % n] = name
    return seats


def game_setup(setup: str, game: int, players: int) -> str:
    """The setup of game ``game``: ``mixed`` alternates by blocks of ``players`` games.

    >>> [game_setup("mixed", g, 3) for g in range(7)]
    ['first', 'first', 'first', 'variable', 'variable', 'variable', 'first']
    """
    if setup != "mixed":
        return setup
    return "first" if (game // players) % 2 == 0 else "variable"


def wilson_interval(wins: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``(0.0, 1.0)`` with no trials).

    >>> [round(x, 4) for x in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    >>> [round(x, 4) for x in wilson_interval(0, 10)]
    [0.0, 0.2775]
    """
    if trials <= 0:
        return 0.0, 1.0
    p = wins / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


# One game -------------------------------------------------------------------------


@dataclass
class GameResult:
    """What one arena game produced."""

    game: int
    setup: str
    seat_strategies: list[str]
    scores: list[int]
    winners: list[int]
    actions: int
    state: GameState = field(repr=False)


def play_game(
    seat_strategies: Sequence[str],
    *,
    setup: str = "first",
    seed: int = 0,
    game: int = 0,
    bot_options: dict[str, Any] | None = None,
    seat_options: Sequence[dict[str, Any]] | None = None,
    max_actions: int = MAX_ACTIONS,
    before_decision: Callable[[GameState], None] | None = None,
) -> GameResult:
    """Play one game to the end: seat ``s`` is played by strategy ``seat_strategies[s]``.

    ``seat_options``: each seat's own bot options, over ``bot_options``;
    ``before_decision`` sees the game before each decision (a bench's measurement; it must
    not change it). The engine's seed
    and each bot's RNG come from ``seed`` and ``game``. A bot
    that chooses an illegal action makes :func:`push` raise
    :class:`IllegalActionError` (with a note naming the bot).
    """
    players = len(seat_strategies)
    options = bot_options or {}
    own = seat_options or [{} for _ in seat_strategies]
    bots: list[Bot] = [
        make_bot(
            name,
            seat,
            random.Random(derive_seed(seed, "bot", game, seat)),
            **{**options, **own[seat]},
        )
        for seat, name in enumerate(seat_strategies)
    ]
    # An upper bound for the ladder: a bot that asked to may see the whole game.
    seers = [bot for bot in bots if getattr(bot, "omniscient", False)]
    state = new_game(Options(players=players, setup=setup, seed=derive_seed(seed, "game", game)))
    log = state.log
    assert log is not None
    listeners = [bot for bot in bots if bot.wants_events]
    seen = 0
    while state.phase != Phase.OVER:
        if before_decision is not None:
            before_decision(state)
        if listeners:
            seen = _feed(listeners, log, seen)
        seat = seats_to_act(state)[0]
        bot = bots[seat]
        legal = legal_actions(state, seat)
        if not legal:
            raise RuntimeError(
                f"seat {seat} is to act but has no legal action "
                f"(game {game}, action {state.version})"
            )
        if bot in seers:
            bot.reveal(state)  # type: ignore[attr-defined]
        action = bot.choose(view(state, seat) if bot.wants_view else {}, legal)
        try:
            push(state, seat, action)
        except IllegalActionError as exc:
            exc.add_note(f"chosen by {bot!r} in game {game} at action {state.version}")
            raise
        if state.version >= max_actions:
            raise RuntimeError(f"game {game} did not end within {max_actions} actions")
    if listeners:
        _feed(listeners, log, seen)
    score = state.score
    assert score is not None
    return GameResult(
        game=game,
        setup=setup,
        seat_strategies=list(seat_strategies),
        scores=[player["total"] for player in score["players"]],
        winners=list(score["winners"]),
        actions=state.version,
        state=state,
    )


def _feed(listeners: list[Bot], log: list[dict[str, Any]], seen: int) -> int:
    """Show each listener the events after ``seen``; return the new count."""
    for event in log[seen:]:
        for bot in listeners:
            shown = event_view(event, bot.seat)
            if shown is not None:
                bot.observe(shown)
    return len(log)


def play(job: Game) -> Played:
    """Play one game of a run (here, in a worker process or on a cluster's worker)."""
    start = time.perf_counter()
    result = play_game(
        job.seats,
        setup=job.setup,
        seed=job.seed,
        game=job.game,
        bot_options=job.bot_options,
        seat_options=job.seat_options,
    )
    return Played(
        game=job.game,
        seats=job.seats,
        scores=tuple(result.scores),
        winners=tuple(result.winners),
        actions=result.actions,
        seconds=time.perf_counter() - start,
        record=export_record(result.state, list(job.seats)) if job.record else None,
    )


# A run of games -------------------------------------------------------------------


@dataclass
class ArenaResult:
    """Totals over a run of games, by strategy name."""

    strategies: list[str]
    setup: str
    seed: int
    games: int = 0
    seconds: float = 0.0
    actions: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    score_sums: dict[str, int] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """Strategy names without repeats, in order of first appearance."""
        return list(dict.fromkeys(self.strategies))

    def seats_of(self, name: str) -> int:
        return self.strategies.count(name)

    def add(self, result: Played) -> None:
        self.games += 1
        self.actions += result.actions
        for seat, name in enumerate(result.seats):
            self.score_sums[name] = self.score_sums.get(name, 0) + result.scores[seat]
            if seat in result.winners:
                self.wins[name] = self.wins.get(name, 0) + 1

    def win_rate(self, name: str) -> float:
        trials = self.games * self.seats_of(name)
        return self.wins.get(name, 0) / trials if trials else 0.0

    def interval(self, name: str) -> tuple[float, float]:
        return wilson_interval(self.wins.get(name, 0), self.games * self.seats_of(name))

    def mean_score(self, name: str) -> float:
        trials = self.games * self.seats_of(name)
        return self.score_sums.get(name, 0) / trials if trials else 0.0

    def to_json(self) -> dict[str, Any]:
        names = self.names
        return {
            "games": self.games,
            "players": list(self.strategies),
            "setup": self.setup,
            "seed": self.seed,
            "wins": {name: self.wins.get(name, 0) for name in names},
            "win_rate": {name: round(self.win_rate(name), 4) for name in names},
            "win_rate_ci95": {name: [round(x, 4) for x in self.interval(name)] for name in names},
            "mean_scores": {name: round(self.mean_score(name), 4) for name in names},
            "mean_actions": round(self.actions / self.games, 4) if self.games else 0.0,
            "games_per_second": round(self.games / self.seconds, 2) if self.seconds else 0.0,
        }

    def table(self) -> str:
        head = (
            f"{self.games} games, {len(self.strategies)} players, setup {self.setup}, "
            f"seed {self.seed}"
        )
        width = max(len("strategy"), *(len(name) for name in self.names))
        lines = [
            head,
            "",
            f"{'strategy':<{width}}  seats  {'wins':>5}  win rate  {'95% CI':<15}  mean score",
        ]
        for name in self.names:
            low, high = self.interval(name)
            ci = f"[{low:.1%}, {high:.1%}]"
            lines.append(
                f"{name:<{width}}  {self.seats_of(name):>5}  {self.wins.get(name, 0):>5}"
                f"  {self.win_rate(name):>8.1%}  {ci:<15}  {self.mean_score(name):>10.1f}"
            )
        mean_actions = self.actions / self.games if self.games else 0.0
        speed = self.games / self.seconds if self.seconds else 0.0
        lines += ["", f"mean actions per game {mean_actions:.1f}; {speed:.1f} games/s"]
        return "\n".join(lines)


def run_arena(
    strategies: Sequence[str],
    games: int,
    *,
    setup: str = "first",
    seed: int = 0,
    record_dir: Path | None = None,
    bot_options: dict[str, Any] | None = None,
    processes: int = 1,
    cluster: str | None = None,
) -> ArenaResult:
    """Play ``games`` games with rotating seats and add up the results: here, in
    ``processes`` processes, or on the Dask scheduler at ``cluster`` (:mod:`.games`; the
    same results wherever)."""
    if len(strategies) not in (3, 4):
        raise ValueError("Tyros is played by 3 or 4 players")
    if setup not in SETUPS:
        raise ValueError(f"setup must be one of {', '.join(SETUPS)}")
    unknown = [name for name in strategies if name not in registered()]
    if unknown:
        make_bot(unknown[0], 0, random.Random(0))  # raises the ValueError naming the known ones
    if record_dir is not None:
        record_dir.mkdir(parents=True, exist_ok=True)
    totals = ArenaResult(strategies=list(strategies), setup=setup, seed=seed)
    players = len(strategies)
    jobs = [
        Game(
            seats=tuple(seat_order(strategies, game)),
            setup=game_setup(setup, game, players),
            seed=seed,
            game=game,
            bot_options=dict(bot_options or {}),
            record=record_dir is not None,
        )
        for game in range(games)
    ]
    for played in play_all(play, jobs, processes=processes, cluster=cluster):
        totals.seconds += played.seconds
        totals.add(played)
        if record_dir is not None:
            path = record_dir / f"game-{played.game:04d}.json"
            path.write_text(json.dumps(played.record, indent=1) + "\n", encoding="utf-8")
    return totals


# The command line -----------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tyros-arena",
        description="Play offline games of Tyros between bots and report win rates.",
    )
    parser.add_argument("--games", type=int, default=20, help="number of games (default 20)")
    parser.add_argument(
        "--players",
        default="random,random,random,random",
        help=f"comma-separated strategies, 3 or 4 of them (known: {', '.join(registered())})",
    )
    parser.add_argument(
        "--setup",
        choices=SETUPS,
        default="first",
        help="first-game setup, variable setup, or both alternately",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed for the whole run (default: a random one, printed)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object instead of the table"
    )
    parser.add_argument(
        "--record", type=Path, metavar="DIR", help="write each game's record as DIR/game-NNNN.json"
    )
    parser.add_argument(
        "--move-time",
        type=float,
        metavar="SECONDS",
        help="thinking time per decision, for bots that search",
    )
    parser.add_argument(
        "--iterations",
        type=int,
        metavar="N",
        help="search iterations per decision, for bots that search",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="play in N processes (default 1)"
    )
    parser.add_argument(
        "--cluster",
        metavar="tcp://HOST:8786",
        help="play on the workers of this Dask scheduler instead (pip install 'tyros[cluster]')",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the arena from the command line; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    strategies = [name.strip() for name in args.players.split(",") if name.strip()]
    if len(strategies) not in (3, 4):
        parser.error(f"--players needs 3 or 4 strategies, got {len(strategies)}")
    for name in strategies:
        if name not in registered():
            parser.error(f"unknown strategy {name!r}; known strategies: {', '.join(registered())}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.move_time is not None and args.move_time <= 0:
        parser.error("--move-time must be positive")
    if args.iterations is not None and args.iterations < 1:
        parser.error("--iterations must be at least 1")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    bot_options: dict[str, Any] = {}
    if args.move_time is not None:
        bot_options["move_time"] = args.move_time
    if args.iterations is not None:
        bot_options["iterations"] = args.iterations
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    try:
        result = run_arena(
            strategies,
            args.games,
            setup=args.setup,
            seed=seed,
            record_dir=args.record,
            bot_options=bot_options,
            processes=args.jobs,
            cluster=args.cluster,
        )
    except ClusterUnavailable as exc:
        print(f"tyros-arena: {exc}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        sys.stdout.write(result.table() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
