"""Review and hint figures: a whole game's review time, agreement with a 10x search, hint latency.

    python bench/review.py                 # 1 game reviewed, 40 positions, 40 hints
    python bench/review.py --positions 40 --json

(a) review time: ``tyros-review``'s :func:`review_record` of every seat of one seeded
    4-player greedy game at the default budget (48 deals a decision).
(b) agreement: at ``--positions`` decisions with a choice taken from seeded greedy games
    (one seat each, from its view and events only), the best option found at the default
    budget against the best found with 10 times the budget (its own seed): the share that
    agree, and the share whose default-budget choice is within the long search's spread
    of its best (a near tie is no disagreement that matters).
(c) hint latency: :func:`~tyros_client.hints.hint` at ``--hints`` other positions, as the
    client calls it (48 determinizations, at most 2 s): p50, p99 and the worst, in ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from tyros_client.arena import play_game
from tyros_client.bots.determinize import Memory
from tyros_client.hints import hint
from tyros_client.replay import Replay
from tyros_client.review import DEFAULT_ITERATIONS, review_record, weigh_options
from tyros_rules import events_seen, export_record, legal_actions, view

GAME = ["greedy", "greedy", "greedy", "greedy"]


def positions(
    count: int, seed: int
) -> list[tuple[dict[str, Any], int, list[Any], list[dict[str, Any]]]]:
    """``count`` decisions with a choice, spread over seeded greedy games: (view, seat,
    legal actions, the events the seat was shown before it)."""
    rng = random.Random(seed)
    out = []
    game = 0
    while len(out) < count:
        replay = Replay(export_record(play_game(GAME, seed=seed, game=game).state))
        game += 1
        picks = sorted(rng.sample(range(1, replay.decisions), 12))
        for number in picks:
            at = replay.action_at[number - 1]
            seat = replay.events[at]["seat"]
            state = replay.states[number - 1]
            legal = legal_actions(state, seat)
            if len(legal) < 2:
                continue
            shown = [seen for _, seen in events_seen(replay.events[:at], seat)]
            out.append((view(state, seat), seat, legal, shown))
            if len(out) == count:
                break
    return out


def remembered(seat: int, events: list[dict[str, Any]]) -> Memory:
    memory = Memory(seat)
    for event in events:
        memory.observe(event)
    return memory


def best_of(weighed: list[tuple[Any, list[float]]]) -> tuple[Any, float, float]:
    """(the best option, its mean, the spread of the means) of a weighing."""
    means = [(statistics.fmean(values), action) for action, values in weighed]
    top = max(means, key=lambda item: item[0])
    values = dict(weighed)[top[1]]
    spread = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return top[1], top[0], spread


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=40, help="for the agreement (40)")
    parser.add_argument("--hints", type=int, default=200, help="positions timed as hints (200)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    record = export_record(play_game(GAME, seed=args.seed, game=99).state)
    started = time.perf_counter()
    reviewed = [review_record(record, seat) for seat in range(4)]
    review_seconds = time.perf_counter() - started

    spots = positions(args.positions, args.seed)
    agree = close = 0
    for at, (seen, seat, legal, events) in enumerate(spots):
        memory = remembered(seat, events)
        short, _ = weigh_options(
            seen, seat, legal, memory, random.Random(at), iterations=DEFAULT_ITERATIONS
        )
        long, _ = weigh_options(
            seen,
            seat,
            legal,
            remembered(seat, events),
            random.Random(10_000 + at),
            iterations=10 * DEFAULT_ITERATIONS,
        )
        chosen = best_of(short)[0]
        best, best_mean, spread = best_of(long)
        agree += chosen == best
        found = dict(long).get(chosen)
        chosen_mean = statistics.fmean(found) if found else float("-inf")
        close += best_mean - chosen_mean <= max(spread, 0.25)

    latencies = []
    for seen, seat, legal, events in positions(args.hints, args.seed + 1):
        began = time.perf_counter()
        hint(seen, seat, legal, events)  # as the client calls it: the events, then the search
        latencies.append(1000 * (time.perf_counter() - began))
    latencies.sort()
    out = {
        "review_seconds_4_seats": round(review_seconds, 1),
        "review_decisions": sum(len(r.decisions) for r in reviewed),
        "review_budget": DEFAULT_ITERATIONS,
        "positions": len(spots),
        "agreement": round(agree / len(spots), 3),
        "within_spread": round(close / len(spots), 3),
        "hints_timed": len(latencies),
        "hint_ms_p50": round(latencies[len(latencies) // 2], 1),
        "hint_ms_p99": round(latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))], 1),
        "hint_ms_max": round(latencies[-1], 1),
    }
    if args.json:
        print(json.dumps(out))
    else:
        for key, value in out.items():
            print(f"{key:24} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
