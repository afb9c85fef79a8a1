"""Bot strength and search speed: the figures of the README's "Bots" section.

    python bench/bots.py greedy-vs-random               # 400 four-player games
    python bench/bots.py ismcts-vs-greedy               # 200 four-player games, 1 s a decision
    python bench/bots.py ismcts-vs-greedy --players 3   # the same with three players
    python bench/bots.py greedy-vs-plain                # 200 games, 2 seats each: negotiating
                                                        # greedy against greedy-plain
    python bench/bots.py speed                          # ISMCTS iterations per CPU-second
    python bench/bots.py searches --json                # seeded searches' choices (pinned)
    python bench/bots.py convergence                    # does more search change the choice?
    python bench/bots.py convergence --level hard --answers --positions 300 \\
        --budgets 100,150,300,600,4000                  # the level's answers to offers
    python bench/bots.py option --option bank_margin --value 0.1 --base 0 --seed 11
                                                        # one greedy setting against another
    python bench/bots.py ismcts-vs-greedy --games 20 --iterations 300 --jobs 2 --json

Every match is exactly ``tyros-arena --players ... --seed ... [--move-time S]
[--iterations N]`` (the same games, seats rotated every game, the same seeds,
so game ``g`` is identical whether played here or by ``tyros-arena``), split
over ``--jobs`` worker processes; ``--start G`` plays games ``G`` onwards, so a
long match can be split over several runs (keep ``--start`` a multiple of the
player count so that every run rotates the seats fully). It prints the arena's totals with 95%
Wilson intervals, and for search bots the iterations per decision and per
second of thinking. Games with a time budget depend on the machine's speed,
so only iteration budgets reproduce exactly.

``speed`` times the search alone: ISMCTS decisions from positions reached in
seeded greedy games, ``--iterations`` each (default 1000), in CPU seconds, by
``bench/timing.py`` in a process of its own; ``--beside PYTHON`` times the same positions
under another interpreter too (an older commit installed in a venv of its own, a compiled
install), ``--runs`` times each, alternately:

    python bench/bots.py speed --beside ../venv-ab150b0/bin/python --beside ../wheel/bin/python
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tyros_client import arena
from tyros_client.bots import Bot, make_bot
from tyros_client.bots.determinize import Memory
from tyros_client.bots.ismcts import ISMCTSBot
from tyros_client.bots.levels import LEVELS, reproducible
from tyros_client.bots.search import Search
from tyros_client.games import Played
from tyros_rules import (
    Kind,
    Options,
    Phase,
    event_view,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)

TIMING = Path(__file__).with_name("timing.py")
"""Times the searches under any interpreter (``speed``'s ``--beside``)."""

MATCHES = {
    "greedy-vs-random": ("greedy", "random", 400, None),
    "ismcts-vs-greedy": ("ismcts", "greedy", 200, 1.0),
    "greedy-vs-plain": ("greedy", "greedy-plain", 200, None),
}
"""name -> (the measured strategy, its opponents, games, seconds a search decision)."""
HALF_AND_HALF = {"greedy-vs-plain"}
"""Matches of two seats each (the rest: one seat against the others)."""


# One game in a worker ---------------------------------------------------------------

_made: list[Bot] = []


def _recording_make_bot(name: str, seat: int, rng: random.Random, **options: Any) -> Bot:
    bot = make_bot(name, seat, rng, **options)
    _made.append(bot)
    return bot


def play_one(job: tuple[list[str], str, int, int, dict[str, Any]]) -> dict[str, Any]:
    """Play arena game ``game`` (in a worker); its result and the search bots' statistics."""
    strategies, setup, seed, game, options = job
    setattr(arena, "make_bot", _recording_make_bot)  # noqa: B010 - to read the bots' stats
    _made.clear()
    players = len(strategies)
    seats = arena.seat_order(strategies, game)
    result = arena.play_game(
        seats,
        setup=arena.game_setup(setup, game, players),
        seed=seed,
        game=game,
        bot_options=options,
    )
    searches = iterations = 0
    seconds = 0.0
    for bot in _made:
        if isinstance(bot, ISMCTSBot):
            searches += int(bot.stats["searches"])
            iterations += int(bot.stats["iterations"])
            seconds += float(bot.stats["seconds"])
    return {
        "game": game,
        "setup": result.setup,
        "seats": seats,
        "scores": result.scores,
        "winners": result.winners,
        "actions": result.actions,
        "searches": searches,
        "iterations": iterations,
        "search_seconds": seconds,
    }


def run_match(
    strategies: list[str],
    games: int,
    *,
    setup: str,
    seed: int,
    jobs: int,
    options: dict[str, Any],
    progress: bool,
    start: int = 0,
) -> dict[str, Any]:
    """Play games ``start`` to ``start + games - 1`` (over ``jobs`` processes), add them up."""
    totals = arena.ArenaResult(strategies=list(strategies), setup=setup, seed=seed)
    work = [(list(strategies), setup, seed, game, options) for game in range(start, start + games)]
    searches = iterations = 0
    seconds = 0.0
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done, game in enumerate(pool.map(play_one, work), 1):
            totals.add(
                Played(
                    game=game["game"],
                    seats=tuple(game["seats"]),
                    scores=tuple(game["scores"]),
                    winners=tuple(game["winners"]),
                    actions=game["actions"],
                    seconds=0.0,
                )
            )
            searches += game["searches"]
            iterations += game["iterations"]
            seconds += game["search_seconds"]
            if progress:
                rates = ", ".join(f"{name} {totals.wins.get(name, 0)}" for name in totals.names)
                print(f"game {done}/{games}: wins {rates}", file=sys.stderr, flush=True)
    totals.seconds = time.perf_counter() - began
    out = totals.to_json()
    out["options"] = options
    out["jobs"] = jobs
    out["first_game"] = start
    if searches:
        out["ismcts"] = {
            "searches": searches,
            "iterations_per_search": round(iterations / searches, 1),
            "iterations_per_second": round(iterations / seconds, 1),
        }
    return out


# Search speed -----------------------------------------------------------------------


Position = tuple[dict[str, Any], list[tuple[int, ...]], int, list[dict[str, Any]]]
"""A decision of a seeded greedy game: the seat's view, its legal actions, the seat, and the
events it was shown."""


def sample_positions(positions: int, seed: int) -> list[Position]:
    """Decisions (of more than one option) drawn from seeded 4-player greedy games."""
    rng = random.Random(seed)
    samples: list[Position] = []
    game = 0
    while len(samples) < positions:
        state = new_game(Options(players=4, seed=seed + game))
        bots = [make_bot("greedy", s, random.Random(seed * 100 + game * 4 + s)) for s in range(4)]
        assert state.log is not None
        while state.phase != Phase.OVER:
            seat = seats_to_act(state)[0]
            legal = legal_actions(state, seat)
            if len(legal) > 1 and rng.random() < 0.1 and len(samples) < positions:
                events = [e for e in (event_view(ev, seat) for ev in state.log) if e]
                samples.append((view(state, seat), legal, seat, events))
            push(state, seat, bots[seat].choose(view(state, seat), legal))
        game += 1
    return samples


def searched(
    position: Position, iterations: int, seed: int, options: dict[str, Any] | None = None
) -> tuple[tuple[int, ...], ISMCTSBot]:
    """The choice of an ISMCTS bot (with ``options``) at ``position`` with ``iterations``
    (an answer to an offer too), and the bot."""
    seen, legal, seat, events = position
    budget = {"iterations": iterations, "answer_iterations": None}
    bot = ISMCTSBot(seat, random.Random(seed), **{**(options or {}), **budget})
    for event in events:
        bot.observe(event)
    return bot.choose(seen, legal), bot


def speed(
    iterations: int,
    positions: int,
    seed: int,
    beside: list[str] | None = None,
    runs: int = 1,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """ISMCTS iterations per CPU-second from positions of seeded greedy games (4 players),
    timed by ``bench/timing.py`` under this interpreter and each of ``beside`` (another
    commit's venv, a compiled install), on the same positions, ``runs`` times alternately;
    the search with ``options`` too (a level's) where given."""
    samples = sample_positions(positions, seed)
    saved = [
        {"view": seen, "legal": legal, "seat": seat, "events": events}
        for seen, legal, seat, events in samples
    ]
    pythons = [sys.executable, *(beside or [])]
    readings: list[list[dict[str, Any]]] = [[] for _python in pythons]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "positions.json"
        path.write_text(json.dumps(saved), "utf-8")
        for _run in range(runs):
            for python, runs_of_it in zip(pythons, readings, strict=True):
                done = subprocess.run(
                    [python, str(TIMING), str(path), str(iterations)]
                    + ([json.dumps(options)] if options else []),
                    check=True,
                    capture_output=True,
                    text=True,
                    cwd=folder,  # (not this checkout: each interpreter's own tyros)
                )
                runs_of_it.append(json.loads(done.stdout))
    return {
        "positions": len(samples),
        "iterations": iterations,
        "readings": [{"python": p, "runs": r} for p, r in zip(pythons, readings, strict=True)],
    }


def pinned_searches(iterations: int, positions: int, seed: int) -> list[dict[str, Any]]:
    """The choice and the root's statistics of seeded searches from positions of seeded
    greedy games: what ``tests/client/data/searches.json`` pins, so that a change meant
    only to make the search faster is shown to leave every decision as it was."""
    out: list[dict[str, Any]] = []
    for number, (seen, legal, seat, events) in enumerate(sample_positions(positions, seed)):
        memory = Memory(seat)
        for event in events:
            memory.observe(event)
        search = Search(seen, seat, legal, random.Random(number), memory)
        action = search.run(iterations, None)
        root = sorted(
            [list(key), child.visits, round(child.total, 6)]
            for key, child in search.root.children.items()
        )
        out.append({"action": list(action), "root": root})
    return out


GREEDY_OPTIONS = ("opponent_weight", "bank_margin", "plausible", "hand_weight", "slip")
"""The greedy bot's numeric options (a name it does not know would be ignored)."""


def option_match(option: str, value: float, base: float, games: int, seed: int) -> dict[str, Any]:
    """Greedy against greedy, two seats each (alternating, so every seat plays both), the
    first pair with ``option`` at ``value``, the other at ``base``: what one setting is worth."""
    if option not in GREEDY_OPTIONS:
        raise ValueError(f"greedy has no option {option!r} (it has {', '.join(GREEDY_OPTIONS)})")
    wins = [0, 0]
    points = [0.0, 0.0]
    for game in range(games):
        pair = [(seat + game) % 2 for seat in range(4)]
        options = [{option: value if p == 0 else base} for p in pair]
        result = arena.play_game(["greedy"] * 4, seed=seed, game=game, seat_options=options)
        for seat, p in enumerate(pair):
            points[p] += result.scores[seat] / (2 * games)
            wins[p] += seat in result.winners
    return {
        "games": games,
        "seed": seed,
        "option": option,
        f"wins at {value}": wins[0],
        f"wins at {base}": wins[1],
        "mean scores": [round(points[0], 1), round(points[1], 1)],
    }


def convergence(
    budgets: list[int],
    positions: int,
    seed: int,
    options: dict[str, Any] | None = None,
    answers: bool = False,
) -> dict[str, Any]:
    """How often a search (with ``options``: a level's) at each budget picks what the
    largest budget picks, beside how often two searches at the largest budget (other seeds)
    agree with each other: the noise floor. Where more search cannot change the choice, it
    cannot make a bot stronger. ``answers``: of the positions drawn, the answers to an
    offer alone."""
    samples = sample_positions(positions, seed)
    if answers:
        samples = [s for s in samples if any(a[0] == Kind.ANSWER for a in s[1])]
    top = max(budgets)
    agree = dict.fromkeys(budgets, 0)
    for number, position in enumerate(samples):
        reference, _ = searched(position, top, number, options)
        for budget in budgets:  # (other seeds: at ``top`` this is the twin search)
            choice, _ = searched(position, budget, 10_000 + number, options)
            agree[budget] += choice == reference
    return {
        "positions": len(samples),
        "reference_iterations": top,
        "agreement_with_reference": {str(b): round(agree[b] / len(samples), 3) for b in budgets},
        "note": f"the {top} entry is two searches of {top} with different seeds (the noise floor)",
    }


# The command line ---------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/bots.py", description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=[*MATCHES, "speed", "searches", "convergence", "option"])
    parser.add_argument("--option", help="option: a greedy option (bank_margin, plausible, ...)")
    parser.add_argument("--value", type=float, help="option: its value on two seats")
    parser.add_argument("--base", type=float, help="option: its value on the other two")
    parser.add_argument("--games", type=int, help="games (default 400 or 200)")
    parser.add_argument(
        "--start",
        type=int,
        default=0,
        help="number of the first game (to split a long match over runs)",
    )
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--setup", choices=arena.SETUPS, default="first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--move-time", type=float, help="seconds per search decision")
    parser.add_argument("--iterations", type=int, help="iterations per search decision")
    parser.add_argument("--positions", type=int, default=40, help="positions timed by speed")
    parser.add_argument(
        "--budgets", default="150,450,1500,5000", help="convergence: iterations to compare"
    )
    parser.add_argument(
        "--beside",
        action="append",
        metavar="PYTHON",
        help="speed: time the same positions under this interpreter too (another venv)",
    )
    parser.add_argument("--runs", type=int, default=1, help="speed: runs of each, alternately")
    parser.add_argument(
        "--level",
        choices=[name for name, level in LEVELS.items() if level.strategy == "ismcts"],
        help="speed: the level's search, at its iterations unless --iterations (for an "
        "interpreter whose bot has the level's options); convergence: the level's search",
    )
    parser.add_argument(
        "--answers",
        action="store_true",
        help="convergence: only the answers to an offer among the positions drawn",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    out: Any
    if args.what == "speed":
        level_options = reproducible(args.level) if args.level else {}
        budget = args.iterations or level_options.get("iterations", 1000)
        out = speed(budget, args.positions, args.seed, args.beside, args.runs, level_options)
    elif args.what == "searches":
        out = pinned_searches(args.iterations or 200, args.positions, args.seed)
    elif args.what == "option":
        if args.option is None or args.value is None or args.base is None:
            parser.error("option needs --option, --value and --base")
        try:
            out = option_match(args.option, args.value, args.base, args.games or 200, args.seed)
        except ValueError as exc:
            parser.error(str(exc))
    elif args.what == "convergence":
        budgets = sorted({int(b) for b in args.budgets.split(",")})
        searching = reproducible(args.level) if args.level else {}
        out = convergence(budgets, args.positions, args.seed, searching, args.answers)
    else:
        hero, others, games, move_time = MATCHES[args.what]
        if args.what in HALF_AND_HALF:
            strategies = [hero, others] * (args.players // 2) + [hero] * (args.players % 2)
        else:
            strategies = [hero] + [others] * (args.players - 1)
        options: dict[str, Any] = {}
        if hero == "ismcts":
            if args.iterations is not None:
                options["iterations"] = args.iterations
            if args.move_time is not None or args.iterations is None:
                options["move_time"] = args.move_time if args.move_time is not None else move_time
        out = run_match(
            strategies,
            args.games or games,
            setup=args.setup,
            seed=args.seed,
            jobs=args.jobs,
            options=options,
            progress=not args.json,
            start=args.start,
        )
    if args.json:
        print(json.dumps(out))
    else:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
