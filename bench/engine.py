"""Engine speed on one core: steps/s, random games/s, state copies/s, checked games/s.

    python bench/engine.py             # a small table
    python bench/engine.py --json      # one JSON object
    python bench/engine.py --games 100 --seed 7

Every game is played by uniformly random legal actions from a seeded RNG, so
two runs do the same work. Everything runs in one thread, so on one core
(``--pin`` also pins the process to one CPU), and each figure is the best of
``--repeat`` runs, since other load on the machine only slows a run down.

The engine caches action tuples by hand, so the figures are for a warm engine
(``--warm`` games played first, as in a server or bot that has been running a
while) playing games it has never seen: each run has its own seeds. Replaying
the same seeds would hit the caches far more than new games do, and flatter it.

(a) steps/s: ``legal_actions`` + a random choice + ``push_unchecked``, setup excluded
    (4 players, first-game setup).
(b) games/s: whole random 4-player games with ``push_unchecked``, setup included,
    for the first-game and the variable setup.
(c) copies/s: ``state.copy()`` of states sampled along random games.
(d) games/s with ``push`` (every action checked), first-game setup.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from tyros_rules import (
    GameState,
    Options,
    Phase,
    legal_actions,
    new_game,
    push,
    push_unchecked,
    seats_to_act,
)

Apply = Callable[[GameState, int, tuple[int, ...]], None]


def pin_to_one_core() -> str:
    """Pin this process to one CPU if the OS supports it; say which."""
    if hasattr(os, "sched_setaffinity") and hasattr(os, "sched_getaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"cpu {cpu}"
    return "not pinned"


def play_random(players: int, setup: str, seed: int, apply: Apply) -> tuple[int, float, float]:
    """One random game: (steps, seconds in setup, seconds in the decision loop)."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    state = new_game(Options(players=players, setup=setup, seed=seed))
    t1 = time.perf_counter()
    steps = 0
    over = Phase.OVER  # an enum attribute lookup costs as much as a cheap engine step
    while state.phase != over:
        seat = seats_to_act(state)[0]
        apply(state, seat, rng.choice(legal_actions(state, seat)))
        steps += 1
    t2 = time.perf_counter()
    return steps, t1 - t0, t2 - t1


def bench_games(games: int, setup: str, seed: int, apply: Apply) -> dict[str, float]:
    steps = 0
    setup_time = loop_time = 0.0
    for game in range(games):
        n, s, lp = play_random(4, setup, seed + game, apply)
        steps += n
        setup_time += s
        loop_time += lp
    total = setup_time + loop_time
    return {
        "games": games,
        "steps": steps,
        "steps_per_game": steps / games,
        "steps_per_second": steps / loop_time,
        "games_per_second": games / total,
        "setup_ms": 1000 * setup_time / games,
    }


def sample_states(count: int, seed: int) -> list[GameState]:
    """``count`` states taken along random 4-player games, at every 25th step."""
    states: list[GameState] = []
    game = 0
    while len(states) < count:
        rng = random.Random(seed + game)
        state = new_game(Options(players=4, seed=seed + game))
        while state.phase != Phase.OVER and len(states) < count:
            if state.version % 25 == 0:
                states.append(state.copy(keep_log=True))
            seat = seats_to_act(state)[0]
            push_unchecked(state, seat, rng.choice(legal_actions(state, seat)))
        game += 1
    return states


def bench_copies(seconds: float, seed: int) -> dict[str, float]:
    """Copies per second of states sampled along random games."""
    states = sample_states(100, seed)
    copies = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for state in states:
            state.copy()
        copies += len(states)
        elapsed = time.perf_counter() - start
    return {"copies": copies, "copies_per_second": copies / elapsed}


def best_of(repeat: int, games: int, setup: str, seed: int, apply: Apply) -> dict[str, float]:
    """The fastest of ``repeat`` runs of new games each (each rate and time at its best)."""
    runs = [bench_games(games, setup, seed + run * games, apply) for run in range(repeat)]
    best = dict(runs[0])
    for result in runs[1:]:
        for key in ("steps_per_second", "games_per_second"):
            best[key] = max(best[key], result[key])
        best["setup_ms"] = min(best["setup_ms"], result["setup_ms"])
    return best


WARM_SEED = 1_000_000
"""Warm-up games use seeds from here on, far from the measured ones."""


def run(
    games: int, seed: int, copy_seconds: float, repeat: int, pin: bool = False, warm: int = 200
) -> dict[str, Any]:
    pinned = pin_to_one_core() if pin else "one thread, not pinned"
    bench_games(warm, "first", WARM_SEED, push_unchecked)
    bench_games(warm // 4, "variable", WARM_SEED + warm, push_unchecked)
    unchecked_first = best_of(repeat, games, "first", seed, push_unchecked)
    unchecked_variable = best_of(repeat, games, "variable", seed + repeat * games, push_unchecked)
    copies = max(
        bench_copies(copy_seconds / repeat, seed)["copies_per_second"] for _ in range(repeat)
    )
    checked_first = best_of(repeat, games, "first", seed + 2 * repeat * games, push)
    return {
        "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cpus, {pinned}",
        "seed": seed,
        "games": games,
        "repeat": repeat,
        "warm": warm,
        "steps_per_second": round(unchecked_first["steps_per_second"]),
        "steps_per_game": round(unchecked_first["steps_per_game"], 1),
        "games_per_second_first": round(unchecked_first["games_per_second"], 1),
        "games_per_second_variable": round(unchecked_variable["games_per_second"], 1),
        "setup_ms_first": round(unchecked_first["setup_ms"], 3),
        "setup_ms_variable": round(unchecked_variable["setup_ms"], 3),
        "copies_per_second": round(copies),
        "games_per_second_checked": round(checked_first["games_per_second"], 1),
        "steps_per_second_checked": round(checked_first["steps_per_second"]),
    }


def table(report: dict[str, Any]) -> str:
    rows = [
        ("(a) engine steps/s (legal_actions + push_unchecked)", f"{report['steps_per_second']:,}"),
        ("    steps per game (4p, first setup)", f"{report['steps_per_game']:,}"),
        ("(b) random 4p games/s, first setup", f"{report['games_per_second_first']:,}"),
        ("    random 4p games/s, variable setup", f"{report['games_per_second_variable']:,}"),
        (
            "    new_game ms, first / variable",
            f"{report['setup_ms_first']} / {report['setup_ms_variable']}",
        ),
        ("(c) state.copy() per second", f"{report['copies_per_second']:,}"),
        ("(d) random 4p games/s with checked push", f"{report['games_per_second_checked']:,}"),
        ("    steps/s with checked push", f"{report['steps_per_second_checked']:,}"),
    ]
    width = max(len(name) for name, _ in rows)
    head = (
        f"tyros engine bench: Python {report['python']}, {report['machine']}, "
        f"after {report['warm']} warm-up games, best of {report['repeat']} x "
        f"{report['games']} new games, first seed {report['seed']}"
    )
    return "\n".join([head, *(f"{name:<{width}}  {value:>12}" for name, value in rows)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=30, help="games per measurement (30)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs of each measurement; the best is reported (3)"
    )
    parser.add_argument("--seed", type=int, default=1, help="first game seed (1)")
    parser.add_argument(
        "--warm",
        type=int,
        default=200,
        help="games played before measuring, to warm the caches (200)",
    )
    parser.add_argument(
        "--copy-seconds", type=float, default=1.0, help="how long to time state.copy() (1.0)"
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="pin the process to one CPU (on a busy machine this can be slower)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1 or args.warm < 0:
        parser.error("--games and --repeat must be at least 1, --warm at least 0")
    report = run(args.games, args.seed, args.copy_seconds, args.repeat, args.pin, args.warm)
    print(json.dumps(report) if args.json else table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
