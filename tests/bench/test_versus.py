"""The match across versions (``bench/versus.py``): its seeds, seating, the bots' flags, the
summary, and short games over the protocol with real processes, this venv standing for the
old version too (so that nothing is built)."""

from __future__ import annotations

import asyncio
import doctest
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tyros_client import arena

from .scripts import load

versus = load("versus")
common = load("_common")
races = load("races")
HERE = Path(sys.prefix)
"""This venv: its ``tyros-server`` and ``tyros-bot`` play the old version's part here."""
HARD = {"hard": ["ismcts", {"iterations": 150, "move_time": 0.3}]}
EASY = {"easy": ["greedy", {"slip": 0.25}], **HARD}
QUICK = {"hard": ["ismcts", {"iterations": 1000, "answer_iterations": 150, "move_time": 0.5}]}
OLD = frozenset({"--strategy", "--iterations", "--move-time"})
"""The options of a ``tyros-bot`` from before ``--level``."""
NEW = OLD | {"--level", "--answer-iterations"}


def test_its_examples_hold() -> None:
    failures, tried = doctest.testmod(versus)
    assert tried >= 5 and failures == 0


def test_every_seed_comes_from_the_runs_seed_the_game_and_the_seat() -> None:
    assert versus.table_seed(7, 3) == arena.derive_seed(7, "game", 3)  # the arena's deal
    assert versus.table_seed(7, 3) == versus.table_seed(7, 3) != versus.table_seed(7, 4)
    seeds = {versus.bot_seed(7, game, seat) for game in range(3) for seat in range(4)}
    assert len(seeds) == 12
    assert versus.bot_seed(7, 1, 2) == arena.derive_seed(7, "bot", 1, 2)


def test_the_new_bot_moves_one_seat_a_game() -> None:
    tables = [versus.seating("new-x", "old-x", game) for game in range(8)]
    assert [table.index("new-x") for table in tables] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert all(sorted(table) == ["new-x", "old-x", "old-x", "old-x"] for table in tables)


def test_a_level_is_played_at_its_budget_with_the_flags_its_version_has() -> None:
    old = versus.side(Path("old"), "old", "hard", HARD, OLD)
    assert (old.name, old.strategy, old.options) == ("old-hard", "ismcts", {"iterations": 150})
    assert old.flags == ("--strategy", "ismcts", "--iterations", "150")
    new = versus.side(Path("new"), "new", "hard", HARD, NEW, {"move_time": 2})
    assert new.options == {"iterations": 150, "move_time": 2}
    assert new.flags == ("--level", "hard", "--iterations", "150", "--move-time", "2")
    easy = versus.side(Path("new"), "new", "easy", EASY, NEW)
    assert (easy.flags, easy.options) == (("--level", "easy"), {"slip": 0.25})
    assert versus.side(Path("old"), "old", "random", {}, OLD).flags == ("--strategy", "random")
    with pytest.raises(ValueError, match="cannot play easy"):  # no --level, no --slip
        versus.side(Path("old"), "old", "easy", EASY, OLD)
    with pytest.raises(ValueError, match="no flag for value"):
        versus.side(Path("new"), "new", "hard", HARD, NEW, {"value": "learned"})
    with pytest.raises(ValueError, match="no level 'deep'"):
        versus.side(Path("new"), "new", "deep", HARD, NEW)
    with pytest.raises(ValueError, match="KEY=VALUE"):
        versus.parse_options(["iterations"])


def test_a_level_answers_offers_at_its_own_budget_or_is_not_played() -> None:
    new = versus.side(Path("new"), "new", "hard", QUICK, NEW)
    assert new.options == {"iterations": 1000, "answer_iterations": 150}
    flags = ("--level", "hard", "--iterations", "1000", "--answer-iterations", "150")
    assert new.flags == flags
    # A tyros-bot whose --iterations is every decision's budget, and no --answer-iterations:
    with pytest.raises(ValueError, match=r"no flag for \['answer_iterations'\]"):
        versus.side(Path("new"), "new", "hard", QUICK, NEW - {"--answer-iterations"})
    slow = versus.side(Path("new"), "new", "hard", QUICK, NEW, {"answer_iterations": 1000})
    assert slow.flags[-2:] == ("--answer-iterations", "1000")
    # Where the level has no answers' budget of its own, the flag is not needed:
    plain = versus.side(Path("new"), "new", "hard", HARD, NEW - {"--answer-iterations"})
    assert plain.flags == ("--level", "hard", "--iterations", "150")
    # A level's own setting with no flag for it is left to --level, never passed as a flag:
    timed = {"timed": ["ismcts", {"answer_iterations": 150, "move_time": 0.5}]}
    flags = versus.side(Path("new"), "new", "timed", timed, NEW - {"--answer-iterations"}).flags
    assert flags == ("--level", "timed", "--move-time", "0.5")


def test_a_venv_is_described_by_the_options_its_tyros_bot_has() -> None:
    levels, flags, _ = versus.describe(HERE)
    assert levels["hard"][1]["answer_iterations"] >= 1
    assert {"--level", "--iterations", "--answer-iterations", "--move-time"} <= flags
    assert versus.side(HERE, "new", "hard", levels, flags).flags[:2] == ("--level", "hard")


def test_an_old_venv_is_never_built_over_a_folder(tmp_path: Path) -> None:
    with pytest.raises(versus.MatchError, match="exists"):
        versus.make_old("HEAD", tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_only_the_first_bot_deals_the_game() -> None:
    who = versus.side(Path("/v"), "old", "hard", HARD, OLD)
    first = versus.bot_command(who, "ws://127.0.0.1:9", "game-2", "old-hard-0", 11, 22)
    later = versus.bot_command(who, "ws://127.0.0.1:9", "game-2", "old-hard-1", 12, None)
    assert first[:2] == ["/v/bin/tyros-bot", "127.0.0.1:9"]
    assert first[-2:] == ["--table-seed", "22"] and "--table-seed" not in later
    for flag, value in [("--count", "1"), ("--table", "game-2"), ("--seed", "12")]:
        assert later[later.index(flag) + 1] == value
    assert "--forget" in later and "--iterations" in later


def test_the_summary_counts_shared_wins_and_meetings() -> None:
    lines = [
        {"seats": ["n", "o", "o", "o"], "scores": [60, 60, 40, 30], "winners": [0, 1]},
        {"seats": ["o", "n", "o", "o"], "scores": [50, 20, 40, 30], "winners": [0]},
    ]
    s = versus.summary(lines, "n", "o")
    assert (s["games"], s["wins"], s["seats"]) == (2, 1, 2)
    assert s["interval"] == arena.wilson_interval(1, 2)
    assert s["mean"] == {"n": 40.0, "o": 250 / 6}
    assert (s["above"], s["meetings"]) == (3, 6)  # a shared win: the new seat first


def play(results: Path, *extra: str) -> int:
    argv = ["--old", str(HERE), "--games", "1", "--seed", "3", "--results", str(results)]
    return int(versus.main([*argv, "--new-level", "easy", "--old-level", "random", *extra]))


def test_a_game_over_the_protocol_is_one_line_and_is_not_played_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results, kept = tmp_path / "versus.jsonl", tmp_path / "kept"
    assert play(results, "--keep", str(kept)) == 0
    [line] = [json.loads(text) for text in results.read_text().splitlines()]
    assert line["game"] == 0
    [(number, actions)] = races.stored_games(kept / "versus.db")  # (the server's, kept)
    assert number == 0 and actions and actions[-1][1]["kind"] != "propose"
    assert line["seats"] == ["new-easy", "old-random", "old-random", "old-random"]
    assert len(line["scores"]) == 4 and all(isinstance(s, int) for s in line["scores"])
    best = max(line["scores"])
    assert line["winners"] and all(line["scores"][w] == best for w in line["winners"])
    assert line["settings"] == {
        "seed": 3,
        "table": ["new-easy", "old-random", "old-random", "old-random"],
        "setup": "first",
        "old": None,  # (a venv --make-old built names its commit)
        "entrants": {"new-easy": ["greedy", {"slip": 0.25}], "old-random": ["random", {}]},
    }
    assert "games: 1 (new-easy against three old-random" in capsys.readouterr().out
    assert play(results) == 0  # played already: nothing more
    assert results.read_text().count("\n") == 1
    assert "games: 1" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # other settings: refused, the file untouched
        play(results, "--new-option", "iterations=9")
    assert "other settings" in capsys.readouterr().err
    assert results.read_text().count("\n") == 1


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    process = common.ServerProcess(tmp_path / "server.db", None, "--takeover", "off")
    process.start()
    yield process
    process.stop()


def match(server: Any, tmp_path: Path, new_flags: tuple[str, ...], stall: float) -> Any:
    new = versus.Side(HERE, "new-random", "random", {}, new_flags)
    old = versus.side(HERE, "old", "random", {}, NEW)
    return versus.Match(server.url, new, old, 3, stall, tmp_path, {})


async def test_a_bot_that_dies_stops_the_game_with_its_words(server: Any, tmp_path: Path) -> None:
    broken = match(server, tmp_path, ("--strategy", "no-such-strategy"), stall=600)
    with pytest.raises(versus.MatchError, match=r"(?s)exited with 2.*invalid choice"):
        await versus.play(broken, 1)  # its seat is the second: the first is seated by then


async def test_a_table_where_nothing_happens_is_an_error(server: Any, tmp_path: Path) -> None:
    table = versus.Table(server.url, "nobody-comes", stall=0.2)
    watcher = asyncio.create_task(table.watch())  # it asks and asks: no such table
    with pytest.raises(versus.MatchError, match=r"nothing for 0\.2 s \(waiting for a bot\)"):
        await table.until(lambda: False, watcher, "a bot")
    watcher.cancel()
    await asyncio.gather(watcher, return_exceptions=True)  # (its connection closed)
    assert table.seats == [] and table.scores is None
