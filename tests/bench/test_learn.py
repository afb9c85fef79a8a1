"""The learned evaluation's fitting script (``bench/learn.py``): its rows and its fit."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tyros_client import arena
from tyros_client.bots.features import NAMES, STAGES
from tyros_client.bots.levels import reproducible

from .scripts import load

learn = load("learn")


def test_a_recorded_games_rows_hold_each_seats_features_and_final_total(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    players = "greedy,greedy,greedy"
    assert (
        arena.main(["--players", players, "--games", "1", "--seed", "3", "--record", str(tmp_path)])
        == 0
    )
    capsys.readouterr()
    rows = learn.rows_of(tmp_path / "game-0000.json", 0, 10)
    assert len(rows) > 30 and len(rows) % 3 == 0
    finals = {row[4] for row in rows}
    assert 1 <= len(finals) <= 3  # one final total a seat, repeated at every position
    rounds = [row[1] for row in rows]
    assert rounds == sorted(rounds) and rounds[0] == 1
    assert all(len(row[3]) == len(NAMES) and 0 <= row[2] < STAGES for row in rows)


def test_the_fit_finds_a_linear_rule_and_reports_held_out_games() -> None:
    rng = random.Random(1)
    rows = []
    for game in range(200):
        for rnd in (1, 2):
            features = [rng.uniform(0, 10) for _ in NAMES]
            total = 3.0 + 2.0 * features[0] - features[5] + rng.gauss(0, 0.1)
            today = features[0] + rng.gauss(0, 5)
            rows.append((game, rnd, 3, features, total, today))
    model, report = learn.fit(rows)
    fitted = model["stages"][3]
    assert fitted["weights"][0] == pytest.approx(2.0, abs=0.05)
    assert fitted["weights"][5] == pytest.approx(-1.0, abs=0.05)
    assert fitted["samples"] == 320  # four games in five
    assert [line["round"] for line in report] == [1, 2]
    assert all(line["held_out"] == 40 and line["r2_learned"] > 0.99 for line in report)
    assert all(line["r2_today"] < line["r2_learned"] for line in report)


def test_self_play_of_searches_asks_the_arena_for_four_at_hards_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands: list[list[str]] = []
    monkeypatch.setattr(learn.subprocess, "run", lambda command, check: commands.append(command))
    folder = learn.generate(tmp_path, 400, 11, "ismcts")
    assert folder == tmp_path / "ismcts"
    (command,) = commands
    at = command.index("--players")
    assert command[at + 1] == "ismcts,ismcts,ismcts,ismcts"
    assert command[command.index("--iterations") + 1] == str(reproducible("hard")["iterations"])
    assert command[command.index("--record") + 1] == str(folder)
    assert command[command.index("--seed") + 1] == "11"
