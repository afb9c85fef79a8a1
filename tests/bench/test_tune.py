"""Trying a bot's settings by games (``bench/tune.py``): the unchanged games are the ladder
match's, a changed constant reaches the changed seat only and is put back, and the report
pairs the games."""

from __future__ import annotations

import doctest
import json
import random
from pathlib import Path

import pytest
from tyros_client import arena
from tyros_client.bots import evaluate, make_bot

from .scripts import load

tune = load("tune")
ladder = tune.ladder  # (loading it again would hide the ladder tests' module from doctest)


def test_its_examples_hold() -> None:
    failures, tried = doctest.testmod(tune)
    assert tried >= 3 and failures == 0


def test_unchanged_games_are_the_ladder_matchs_and_a_change_is_read_beside_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, changed = tmp_path / "base.jsonl", tmp_path / "changed.jsonl"
    common = ["--level", "normal", "--against", "easy", "--games", "2", "--seed", "5"]
    assert tune.main([*common, "--results", str(base)]) == 0
    kept = [json.loads(line) for line in base.read_text().splitlines()]
    known = ladder.entrants(ladder.HARD_ITERATIONS, ladder.DEEP_ITERATIONS)
    for line in kept:  # the same games as `ladder.py --table normal,easy,easy,easy`
        seats = ladder.rotated(["normal", "easy", "easy", "easy"], line["game"])
        played = arena.play(ladder.game_of(seats, known, 5, line["game"]))
        assert line["scores"] == list(played.scores) and line["winners"] == list(played.winners)
    capsys.readouterr()
    change = ["--set", "evaluate.AFFORDABLE_NOW=0.2", "--set", "hand_weight=0.5"]
    assert tune.main([*common, *change, "--results", str(changed), "--beside", str(base)]) == 0
    assert capsys.readouterr().out.startswith("2 games: wins ")
    line = json.loads(changed.read_text().splitlines()[0])
    assert line["settings"]["constants"] == {"evaluate.AFFORDABLE_NOW": 0.2}
    assert line["settings"]["options"] == {"hand_weight": 0.5}
    assert sorted(json.loads(x)["scores"] for x in changed.read_text().splitlines()) != sorted(
        x["scores"] for x in kept
    )
    with pytest.raises(ValueError, match="other settings"):  # a file of other settings
        tune.main([*common, "--results", str(base), "--set", "hand_weight=0.9"])


def test_a_changed_constant_holds_during_the_bots_calls_only() -> None:
    seen: list[float] = []

    class Spy:
        seat, wants_events, wants_view = 0, True, True

        def choose(self, view: object, legal: list[object]) -> object:
            seen.append(evaluate.AFFORDABLE_NOW)
            return legal[0]

        def observe(self, event: object) -> None:
            seen.append(evaluate.AFFORDABLE_NOW)

    shipped = evaluate.AFFORDABLE_NOW
    changed = tune.Changed(Spy(), {"evaluate.AFFORDABLE_NOW": shipped + 1})
    changed.observe({})
    assert changed.choose({}, ["pass"]) == "pass"
    assert seen == [shipped + 1, shipped + 1]
    assert shipped == evaluate.AFFORDABLE_NOW  # (put back)
    with pytest.raises(ValueError, match="has no"):
        tune.Changed(make_bot("greedy", 0, random.Random(1)), {"evaluate.NO_SUCH": 1})


def test_the_changed_seat_is_what_the_arena_asks_of_its_bot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An option the arena reads off the bot (``omniscient``: it is shown the whole game)
    reaches it, with constants changed or without."""
    revealed: list[int] = []
    # (a worker's game puts its own bot maker in the arena: this process gets the arena's back)
    monkeypatch.setattr(arena, "make_bot", vars(arena)["make_bot"])
    monkeypatch.setattr(
        "tyros_client.bots.ismcts.ISMCTSBot.reveal", lambda bot, state: revealed.append(bot.seat)
    )
    for constants in ({}, {"evaluate.AFFORDABLE_NOW": 0.8}):
        settings = {
            "level": "ismcts-8",
            "against": "easy",
            "options": {"omniscient": True},
            "constants": constants,
            "setup": "first",
            "seed": 3,
        }
        revealed.clear()
        tune.play((1, ["ismcts-8", "easy", "easy", "easy"], settings))
        assert revealed and set(revealed) == {1}, constants
