"""The learned evaluation: self-play games, their positions' features, and the fitted weights.

    python bench/learn.py --games 2400 --seed 1 --data learn-data     # everything, resumable
    python bench/learn.py --games 400 --data learn-data --report      # R^2 only, no file
    python bench/learn.py --self-play ismcts --games 400 --seed 11 --report   # search games

One command, a fixed seed: it plays the self-play games if ``--data`` lacks them (the
arena's games of four ``greedy`` bots, mixed setups, each kept as a record:
``tyros-arena --players greedy,greedy,greedy,greedy --games N --seed S --setup mixed
--record DATA/greedy``; with ``--self-play ismcts``, four searches at `hard`'s budget in
``DATA/ismcts``), replays each record, takes every ``--every``-th position that is
not the end, and for each seat the features of :mod:`tyros_client.bots.features` and the
seat's final total. One game in five is held out. On the others it fits, for each stage
(card-action phases still to come), a ridge regression of the final total on the
features, and writes the weights to ``client/tyros_client/bots/data/value.json``.

The report: R^2 of the final totals on the held-out games, round by round, of the learned
value and of today's evaluation (its plain sum, shifted and scaled by a fit on the same
training games, as ``bench/calibration.py``'s "R^2 of the plain sum").

Needs numpy (``pip install -e '.[learn]'``); playing with the weights does not.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from tyros_client.bots.evaluate import Analysis
from tyros_client.bots.features import NAMES, STAGES, every_seat, features, stage
from tyros_client.bots.levels import reproducible
from tyros_rules import P_OVER, replay

WEIGHTS = Path(__file__).resolve().parents[1] / "client/tyros_client/bots/data/value.json"
RIDGE = 1.0
"""The ridge penalty (on standardised features): keeps rare stages' weights sane."""


SELF_PLAY = {"greedy": [], "ismcts": ["--iterations", str(reproducible("hard")["iterations"])]}
"""The self-play bots (four of one strategy) and their arena options: ``ismcts`` at `hard`'s
budget plays the search's own games (about 30 s a game on one core, against a fraction of a
second for ``greedy``)."""


def generate(data: Path, games: int, seed: int, strategy: str = "greedy") -> Path:
    """The self-play records, played if fewer than ``games`` are in ``data``."""
    folder = data / strategy
    if len(list(folder.glob("game-*.json"))) < games:
        command = [
            sys.executable,
            "-m",
            "tyros_client.arena",
            "--players",
            ",".join([strategy] * 4),
            *SELF_PLAY[strategy],
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--setup",
            "mixed",
            "--record",
            str(folder),
        ]
        subprocess.run(command, check=True)
    return folder


Row = tuple[int, int, int, list[float], float, float]
"""(game, round, stage, features, final total, today's evaluation)."""


def rows_of(path: Path, game: int, every: int) -> list[Row]:
    record = json.loads(path.read_text("utf-8"))
    totals = [float(p["total"]) for p in record["score"]["players"]]
    snapshots: list[Any] = []
    replay(record, snapshots=snapshots)
    out: list[Row] = []
    for state in snapshots[::every]:
        if state.phase == P_OVER:
            continue
        analysis = Analysis(state)
        own = every_seat(analysis)
        for seat in range(state.players):
            today = analysis.value(seat)
            row = features(analysis, seat, own)
            out.append((game, state.round, stage(analysis), row, totals[seat], today))
    return out


def ridge(x: np.ndarray, y: np.ndarray, penalty: float = RIDGE) -> tuple[float, np.ndarray]:
    """(intercept, weights) of a ridge regression on standardised columns, unstandardised."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    a = z.T @ z + penalty * np.eye(z.shape[1])
    w = np.linalg.solve(a, z.T @ (y - y.mean()))
    weights = w / scale
    return float(y.mean() - mean @ weights), weights


def r2(pred: np.ndarray, y: np.ndarray) -> float:
    return float(1 - ((pred - y) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def fit(
    rows: list[Row], base: str = "none", penalty: float = RIDGE
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The weights of each stage, and the held-out report. ``base``: ``hand-set`` fits what
    the final total adds to the hand-set evaluation (its weight held at 1), ``none`` the
    final total itself."""
    train = [r for r in rows if r[0] % 5]
    test = [r for r in rows if not r[0] % 5]
    on_base = base == "hand-set"
    stages: list[dict[str, Any]] = []
    for number in range(STAGES):
        chosen = [r for r in train if r[2] == number]
        if len(chosen) < 50:
            stages.append({"intercept": 0.0, "weights": [0.0] * len(NAMES), "samples": 0})
            continue
        x = np.array([r[3] for r in chosen])
        y = np.array([r[4] - (r[5] if on_base else 0.0) for r in chosen])
        intercept, weights = ridge(x, y, penalty)
        stages.append(
            {
                "intercept": round(intercept, 6),
                "weights": [round(float(w), 6) for w in weights],
                "samples": len(chosen),
                "r2_train": round(r2(intercept + x @ weights, y), 4),  # (of what is fitted)
            }
        )
    report = []
    for rnd in sorted({r[1] for r in test}):
        held = [r for r in test if r[1] == rnd]
        trained = [r for r in train if r[1] == rnd]
        if len(held) < 40:
            continue
        y = np.array([r[4] for r in held])
        learned = np.array(
            [
                stages[r[2]]["intercept"]
                + np.dot(stages[r[2]]["weights"], r[3])
                + (r[5] if on_base else 0.0)
                for r in held
            ]
        )
        # today's evaluation, shifted and scaled by a fit on the training games of the round
        slope, shift = np.polyfit([r[5] for r in trained], [r[4] for r in trained], 1)
        today = slope * np.array([r[5] for r in held]) + shift
        report.append(
            {
                "round": rnd,
                "held_out": len(held),
                "r2_learned": round(r2(learned, y), 3),
                "r2_today": round(r2(today, y), 3),
            }
        )
    return {"base": base, "stages": stages}, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench/learn.py", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", type=Path, default=Path("learn-data"))
    parser.add_argument(
        "--self-play",
        choices=tuple(SELF_PLAY),
        default="greedy",
        help="whose games to learn from: four greedy bots (the default), or four searches",
    )
    parser.add_argument("--every", type=int, default=6, help="every Nth position of a game")
    parser.add_argument("--report", action="store_true", help="report only; write no weights")
    parser.add_argument(
        "--base",
        choices=("hand-set", "none"),
        default="hand-set",
        help="fit what the final total adds to the hand-set evaluation (the default), or "
        "the total itself",
    )
    parser.add_argument("--ridge", type=float, default=RIDGE, help="the ridge penalty")
    args = parser.parse_args(argv)
    folder = generate(args.data, args.games, args.seed, args.self_play)
    started = time.perf_counter()
    rows: list[Row] = []
    for game in range(args.games):
        rows += rows_of(folder / f"game-{game:04d}.json", game, args.every)
    model, report = fit(rows, args.base, args.ridge)
    print(f"{args.games} games, {len(rows)} rows, {time.perf_counter() - started:.0f} s")
    print("round  held-out  R^2 learned  R^2 today")
    for line in report:
        print(
            f"{line['round']:5d}  {line['held_out']:8d}  {line['r2_learned']:11.3f}"
            f"  {line['r2_today']:9.3f}"
        )
    if not args.report:
        document = {
            "about": "Weights of the learned evaluation (tyros_client.bots.features), "
            "fitted by bench/learn.py to the final totals of self-play games.",
            "command": f"python bench/learn.py --games {args.games} --seed {args.seed} "
            f"--self-play {args.self_play} --every {args.every} --base {args.base} "
            f"--ridge {args.ridge:g}",
            "features": list(NAMES),
            **model,
            "report": report,
        }
        WEIGHTS.write_text(json.dumps(document, indent=1) + "\n", "utf-8")
        print(f"weights written to {WEIGHTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
