"""The offline arena: ``tyros-arena`` via ``main(argv)``, its totals, seeds and records."""

from __future__ import annotations

import json
import random
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from tyros_client import arena
from tyros_client.bots import Bot, strategies
from tyros_client.bots.base import make_bot
from tyros_rules import (
    Action,
    IllegalActionError,
    Kind,
    Phase,
    RecordError,
    event_view,
    replay,
)

ROOT = Path(__file__).resolve().parents[2]
REQUIRED_KEYS = {
    "games",
    "players",
    "wins",
    "mean_scores",
    "mean_actions",
    "games_per_second",
    "win_rate_ci95",
}


# Test-only strategies -------------------------------------------------------------


class FirstLegal(Bot):
    """Always the first legal action: it expands, keeps and otherwise passes."""

    wants_view = False
    wants_events = False

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return legal[0]


class Spy(Bot):
    """Plays at random and remembers everything it is shown."""

    instances: ClassVar[list[Spy]] = []

    def __init__(self, seat: int, rng: random.Random, **options: Any) -> None:
        super().__init__(seat, rng, **options)
        self.views: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.events_before_choice: list[int] = []
        Spy.instances.append(self)

    def observe(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        self.views.append(view)
        self.events_before_choice.append(len(self.events))
        return self.rng.choice(legal)


class Blind(Bot):
    """Wants neither views nor events, and checks that it gets none."""

    wants_view = False
    wants_events = False

    def observe(self, event: dict[str, Any]) -> None:
        raise AssertionError("a bot with wants_events = False was shown an event")

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        assert view == {}
        return self.rng.choice(legal)


class Passer(Bot):
    """Always passes, even when passing is not allowed."""

    wants_view = False
    wants_events = False

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return (Kind.PASS,)


@pytest.fixture(autouse=True)
def test_strategies(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, cls in (
        ("first_legal", FirstLegal),
        ("spy", Spy),
        ("blind", Blind),
        ("passer", Passer),
    ):
        monkeypatch.setattr(cls, "name", name)
        monkeypatch.setitem(strategies(), name, cls)  # (the registry, cached: one dict)
    Spy.instances = []
    yield
    Spy.instances = []


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert arena.main([*args, "--json"]) == 0
    out = capsys.readouterr().out
    result = json.loads(out)  # the whole output is one JSON object
    assert isinstance(result, dict)
    return result


def load_records(directory: Path) -> list[dict[str, Any]]:
    return [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(directory.glob("game-*.json"))
    ]


# The command line -----------------------------------------------------------------


def test_json_report_has_every_key(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(
        capsys, "--games", "4", "--players", "random,random,random,random", "--seed", "5"
    )
    assert set(result) >= REQUIRED_KEYS
    assert result["games"] == 4
    assert result["players"] == ["random"] * 4
    # 16 seats were played; every game has at least one winner, shared wins count for each.
    assert 4 <= result["wins"]["random"] <= 16
    low, high = result["win_rate_ci95"]["random"]
    assert 0 <= low <= result["wins"]["random"] / 16 <= high <= 1
    assert result["mean_actions"] > 0
    assert result["games_per_second"] > 0
    assert set(result["mean_scores"]) == {"random"}


def test_same_seed_same_report(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--games", "3", "--players", "random,random,random", "--seed", "42")
    first = run_json(capsys, *args)
    second = run_json(capsys, *args)
    other = run_json(capsys, "--games", "3", "--players", "random,random,random", "--seed", "43")
    for result in (first, second, other):
        del result["games_per_second"]
    assert first == second
    assert first != other


def test_game_g_does_not_depend_on_the_number_of_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_json(
        capsys,
        "--games",
        "2",
        "--players",
        "random,random,random",
        "--seed",
        "9",
        "--record",
        str(tmp_path / "two"),
    )
    run_json(
        capsys,
        "--games",
        "3",
        "--players",
        "random,random,random",
        "--seed",
        "9",
        "--record",
        str(tmp_path / "three"),
    )
    two, three = load_records(tmp_path / "two"), load_records(tmp_path / "three")
    assert len(two) == 2 and len(three) == 3
    assert two == three[:2]
    assert three[2] != three[1]


def test_seats_rotate_and_totals_match_the_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    strategies = ["random", "first_legal", "spy", "random"]
    result = run_json(
        capsys,
        "--games",
        "5",
        "--players",
        ",".join(strategies),
        "--seed",
        "7",
        "--record",
        str(tmp_path),
    )
    records = load_records(tmp_path)
    assert [p.name for p in sorted(tmp_path.iterdir())] == [f"game-000{g}.json" for g in range(5)]
    wins = dict.fromkeys(strategies, 0)
    score_sums = dict.fromkeys(strategies, 0)
    for game, record in enumerate(records):
        names = [player["name"] for player in record["players"]]
        for i, name in enumerate(strategies):
            assert names[(i + game) % 4] == name
        for seat, player in enumerate(record["score"]["players"]):
            score_sums[names[seat]] += player["total"]
        for seat in record["score"]["winners"]:
            wins[names[seat]] += 1
    assert result["players"] == strategies
    assert result["wins"] == wins  # "random" sums its two seats
    seats = {"random": 2, "first_legal": 1, "spy": 1}
    for name, count in seats.items():
        assert result["mean_scores"][name] == pytest.approx(
            score_sums[name] / (5 * count), abs=1e-4
        )
        low, high = result["win_rate_ci95"][name]
        assert low <= wins[name] / (5 * count) <= high
    assert result["mean_actions"] == pytest.approx(
        sum(record["actions"] for record in records) / 5, abs=1e-4
    )


def test_records_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_json(
        capsys,
        "--games",
        "4",
        "--players",
        "random,random,random,random",
        "--seed",
        "3",
        "--setup",
        "variable",
        "--record",
        str(tmp_path),
    )
    records = load_records(tmp_path)
    assert len(records) == 4
    for record in records:
        assert record["finished"] is True
        assert record["options"]["players"] == 4
        assert record["options"]["setup"] == "variable"
        state = replay(record)
        assert state.phase == Phase.OVER
        assert state.version == record["actions"]
        assert state.score == record["score"]


def test_a_tampered_record_does_not_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_json(
        capsys,
        "--games",
        "1",
        "--players",
        "random,random,random",
        "--seed",
        "3",
        "--record",
        str(tmp_path),
    )
    record = load_records(tmp_path)[0]
    actions = [e for e in record["events"] if e["type"] == "action"]
    actions[0]["seat"] = (actions[0]["seat"] + 1) % 3  # the wrong seat takes the first turn
    with pytest.raises(RecordError):
        replay(record)


def test_three_players_and_mixed_setup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(
        capsys,
        "--games",
        "6",
        "--players",
        "random,random,random",
        "--setup",
        "mixed",
        "--seed",
        "11",
        "--record",
        str(tmp_path),
    )
    assert result["players"] == ["random"] * 3
    assert result["games"] == 6
    records = load_records(tmp_path)
    assert [r["options"]["players"] for r in records] == [3] * 6
    # Setups alternate by blocks of one full seat rotation.
    assert [r["options"]["setup"] for r in records] == ["first"] * 3 + ["variable"] * 3
    for record in records:
        assert len(record["players"]) == 3
        replay(record)


@pytest.mark.parametrize("players", [3, 4])
def test_a_game_of_passers_is_a_shared_win(
    players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    # Nobody moves, builds or trades: every player's only ships sit together in Tyros, are
    # removed as contested, and everybody scores 0. Still tied after the tie-break (0 points
    # from the largest empire each), the win is shared (RULINGS.md, scoring step 5), and a
    # shared win counts once for each winner.
    result = run_json(
        capsys, "--games", "2", "--players", ",".join(["first_legal"] * players), "--seed", "1"
    )
    assert result["wins"] == {"first_legal": 2 * players}
    assert result["mean_scores"] == {"first_legal": 0}


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        arena.main(["--games", "2", "--players", "random,first_legal,random", "--seed", "2"]) == 0
    )
    out = capsys.readouterr().out
    assert "strategy" in out and "win rate" in out and "mean score" in out
    lines = out.splitlines()
    assert any(line.startswith("random ") for line in lines)
    assert any(line.startswith("first_legal ") for line in lines)
    assert "%" in out


def test_unknown_strategy_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        arena.main(["--games", "1", "--players", "random,nobody,random"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "nobody" in err and "random" in err


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "random,random"],
        ["--players", "random,random,random,random,random"],
        ["--players", "random,random,random", "--games", "0"],
        ["--players", "random,random,random", "--setup", "other"],
        ["--players", "random,random,random", "--move-time", "0"],
        ["--players", "random,random,random", "--iterations", "0"],
    ],
)
def test_bad_arguments(args: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        arena.main(args)
    assert caught.value.code == 2


def test_an_illegal_choice_raises(capsys: pytest.CaptureFixture[str]) -> None:
    # A game opens with expansion turns, where passing is not an option.
    with pytest.raises(IllegalActionError) as caught:
        arena.main(["--games", "1", "--players", "passer,random,random", "--seed", "1"])
    assert any("passer" in note for note in getattr(caught.value, "__notes__", []))


def test_options_reach_the_bots(capsys: pytest.CaptureFixture[str]) -> None:
    run_json(
        capsys,
        "--games",
        "1",
        "--players",
        "spy,random,random",
        "--seed",
        "1",
        "--move-time",
        "0.25",
        "--iterations",
        "7",
    )
    assert [spy.options for spy in Spy.instances] == [{"move_time": 0.25, "iterations": 7}]
    Spy.instances = []
    run_json(capsys, "--games", "1", "--players", "spy,random,random", "--seed", "1")
    assert [spy.options for spy in Spy.instances] == [{}]


# What a bot is shown ----------------------------------------------------------------


def test_a_bot_sees_only_its_seat() -> None:
    result = arena.play_game(["random", "spy", "random", "random"], seed=4, game=0)
    (spy,) = Spy.instances
    log = result.state.log
    assert log is not None
    # Exactly the events of the game, in order, as event_view shows them to seat 1.
    expected = [shown for shown in (event_view(event, 1) for event in log) if shown is not None]
    assert spy.events == expected
    assert any(e["type"] == "cards_dealt" and e["seat"] == 1 and "cards" in e for e in spy.events)
    assert not any(
        e["type"] == "cards_dealt" and e["seat"] != 1 and "cards" in e for e in spy.events
    )
    assert not any(e["type"] == "shuffle" for e in spy.events)
    # One view per decision of seat 1, each one seat 1's, with seat 1 to act.
    decisions = [e for e in log if e["type"] == "action" and e["seat"] == 1]
    assert len(spy.views) == len(decisions) > 0
    for seen in spy.views:
        assert seen["viewer"] == 1
        assert 1 in seen["to_act"]
        assert len(seen["hand"]) == seen["seats"][1]["cards"]
    # Before each decision the bot has been shown every event up to that moment.
    action_events_seen = [
        sum(1 for e in spy.events[:count] if e["type"] == "action")
        for count in spy.events_before_choice
    ]
    all_actions = [event for event in log if event["type"] == "action"]
    action_index = [i for i, event in enumerate(all_actions) if event["seat"] == 1]
    assert action_events_seen == action_index


def test_bots_that_want_nothing_are_shown_nothing() -> None:
    result = arena.play_game(["blind", "blind", "blind"], seed=2, game=0)
    assert result.state.phase == Phase.OVER
    assert len(result.scores) == 3 and result.winners


# Pieces -----------------------------------------------------------------------------


def test_seat_order_rotates() -> None:
    strategies = ["a", "b", "c", "d"]
    assert arena.seat_order(strategies, 0) == ["a", "b", "c", "d"]
    assert arena.seat_order(strategies, 1) == ["d", "a", "b", "c"]
    assert arena.seat_order(strategies, 4) == strategies
    # Over a full rotation each strategy sits in every seat once.
    for name in strategies:
        assert sorted(arena.seat_order(strategies, g).index(name) for g in range(4)) == [0, 1, 2, 3]


def test_wilson_interval() -> None:
    # Hand-computed from the Wilson formula with z = 1.96.
    assert arena.wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert arena.wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert arena.wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert arena.wilson_interval(0, 0) == (0.0, 1.0)
    low, high = arena.wilson_interval(250, 1000)
    assert low < 0.25 < high and high - low < 0.06


def test_unknown_strategy_in_run_arena() -> None:
    with pytest.raises(ValueError, match="known strategies"):
        arena.run_arena(["random", "random", "nobody"], 1)
    with pytest.raises(ValueError, match="unknown strategy"):
        make_bot("nobody", 0, random.Random(0))


def test_console_script_is_declared() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["tyros-arena"] == "tyros_client.arena:main"
