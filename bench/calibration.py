"""How well the bots' evaluation foretells a game: its parts, weighed against final scores.

    python bench/calibration.py                          # 200 greedy games, 2 processes
    python bench/calibration.py --games 400 --jobs 2 --json

The evaluation (``tyros_client.bots.evaluate``) values a seat as its expected final points:
its cities, the spaces its ships hold, its bonuses (majorities, all four empires) and its
hand, added up with weight 1 each. This plays seeded 4-player games of ``--strategy`` bots
(the arena's games ``0`` to ``N-1``), takes every seat's parts at the start of each round's
card actions, and fits, round by round, the seat's final total by least squares on them
(with an intercept: the points still to come that no part counts). A calibrated evaluation
has weights near 1 and a high R^2; a part whose weight is far from 1 is over- or
under-valued at that stage of the game, which is what a search that trusts it optimises.
Beside each fit: the mean of each part, the error of the plain sum (weights 1) and of the
fit, in points.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tyros_client import arena
from tyros_client.bots.evaluate import Analysis
from tyros_rules import GameState, Phase

PARTS = ("cities", "ships", "bonuses", "hand")


def rows_of_game(job: tuple[str, int, int]) -> list[tuple[int, list[float], float]]:
    """(round, parts, final total) of every seat at each round's first card action, in the
    arena's game ``game`` (each bot shown only its own seat's view and events)."""
    strategy, seed, game = job
    samples: list[tuple[int, int, list[float]]] = []
    seen_round = [0]

    def measure(state: GameState) -> None:
        if state.phase == Phase.ACTIONS and state.round != seen_round[0]:
            seen_round[0] = state.round
            analysis = Analysis(state)
            samples.extend((state.round, seat, list(analysis.parts(seat))) for seat in range(4))

    result = arena.play_game(
        [strategy] * 4,
        setup=arena.game_setup("first", game, 4),
        seed=seed,
        game=game,
        before_decision=measure,
    )
    return [(rnd, parts, float(result.scores[seat])) for rnd, seat, parts in samples]


def least_squares(xs: list[list[float]], ys: list[float]) -> list[float]:
    """Coefficients of ys on [1, *x] (normal equations, solved by Gaussian elimination)."""
    rows = [[1.0, *x] for x in xs]
    n = len(rows[0])
    a = [[sum(r[i] * r[j] for r in rows) for j in range(n)] for i in range(n)]
    b = [sum(r[i] * y for r, y in zip(rows, ys, strict=True)) for i in range(n)]
    for i in range(n):
        a[i][i] += 1e-6  # (a part that never varies at this stage stays solvable)
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        b[col], b[pivot] = b[pivot], b[col]
        for r in range(n):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] for i in range(n)]


def rmse(pred: list[float], ys: list[float]) -> float:
    return math.sqrt(sum((p - y) ** 2 for p, y in zip(pred, ys, strict=True)) / len(ys))


def fit(rows: list[tuple[int, list[float], float]]) -> list[dict[str, Any]]:
    out = []
    for rnd in sorted({r for r, _, _ in rows}):
        xs = [parts for r, parts, _ in rows if r == rnd]
        ys = [total for r, _, total in rows if r == rnd]
        if len(xs) < 20:
            continue
        coef = least_squares(xs, ys)
        pred = [coef[0] + sum(c * x for c, x in zip(coef[1:], row, strict=True)) for row in xs]
        plain = [sum(row) for row in xs]
        scale = least_squares([[x] for x in plain], ys)  # the sum, shifted and scaled
        scaled = [scale[0] + scale[1] * x for x in plain]
        mean = sum(ys) / len(ys)
        total = sum((y - mean) ** 2 for y in ys)
        r2 = 1.0 - sum((p - y) ** 2 for p, y in zip(pred, ys, strict=True)) / total
        out.append(
            {
                "round": rnd,
                "samples": len(xs),
                "intercept": round(coef[0], 2),
                "weights": {p: round(c, 2) for p, c in zip(PARTS, coef[1:], strict=True)},
                "mean_parts": {
                    p: round(sum(row[i] for row in xs) / len(xs), 2) for i, p in enumerate(PARTS)
                },
                "r2": round(r2, 3),
                "rmse_fit": round(rmse(pred, ys), 2),
                "rmse_plain_sum": round(rmse(plain, ys), 2),
                "sum_scaled": {"intercept": round(scale[0], 2), "slope": round(scale[1], 2)},
                "r2_sum_scaled": round(
                    1.0 - sum((p - y) ** 2 for p, y in zip(scaled, ys, strict=True)) / total, 3
                ),
                "mean_final": round(mean, 2),
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strategy", default="greedy", help="the bots that play (default greedy)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    jobs = [(args.strategy, args.seed, g) for g in range(args.games)]
    rows: list[tuple[int, list[float], float]] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as workers:
        for game_rows in workers.map(rows_of_game, jobs, chunksize=4):
            rows += game_rows
    fits = fit(rows)
    if args.json:
        print(json.dumps({"games": args.games, "strategy": args.strategy, "fits": fits}))
        return 0
    print(f"{args.games} games of {args.strategy}, seed {args.seed}: final total ~ a + w . parts")
    print(
        "round    n      a  "
        + "  ".join(f"{p:>7}" for p in PARTS)
        + "    R^2 | sum: slope   R^2 | rmse fit / plain sum"
    )
    for f in fits:
        weights = "  ".join(f"{f['weights'][p]:7.2f}" for p in PARTS)
        print(
            f"{f['round']:5d} {f['samples']:4d} {f['intercept']:6.1f}  {weights}  {f['r2']:5.2f}"
            f" |      {f['sum_scaled']['slope']:5.2f}  {f['r2_sum_scaled']:5.2f}"
            f" | {f['rmse_fit']:6.1f} / {f['rmse_plain_sum']:.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
