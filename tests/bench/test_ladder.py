"""The rating ladder (``bench/ladder.py``): seating, the fit, the report, resumable runs."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
from tyros_client.bots.levels import LEVELS, reproducible

from .scripts import load

ladder = load("ladder")


def test_its_examples_hold() -> None:
    failures, tried = doctest.testmod(ladder)
    assert tried >= 2 and failures == 0


def test_the_levels_entrants_are_tyros_plays_levels() -> None:
    known = ladder.entrants(ladder.HARD_ITERATIONS, ladder.DEEP_ITERATIONS)
    for name in ("easy", "normal", "hard", "expert"):
        assert known[name] == (LEVELS[name].strategy, reproducible(name))
    assert known["seer"] == ("ismcts", {**reproducible("hard"), "omniscient": True})
    assert known["deep"][1]["iterations"] > known["hard"][1]["iterations"]


def test_a_match_rotates_its_line_up_so_every_entrant_sits_everywhere() -> None:
    table = ["hard", "normal", "normal", "normal"]
    games = [ladder.rotated(table, g) for g in range(4)]
    assert [g.index("hard") for g in games] == [0, 1, 2, 3]
    assert all(sorted(g) == sorted(table) for g in games)
    assert ladder.rotated(table, 4) == table


def test_an_entrant_in_several_seats_is_ranked_once_a_seat() -> None:
    """Three seats of ``normal`` and one of ``hard`` that always wins: ``hard`` rates far
    above, and the report counts seats, not games."""
    lines = [
        {
            "game": g,
            "seats": ["normal", "hard", "normal", "normal"],
            "scores": [40, 70, 50, 45],
            "winners": [1],
        }
        for g in range(12)
    ]
    ratings = ladder.fit([ladder.placements(line) for line in lines], ["hard", "normal"])
    assert ratings["hard"] > ratings["normal"] + 200
    text = ladder.report(lines, resamples=5, seed=1)
    assert "| 12 | 12 (100.0%) |" in text  # hard: 12 seats, 12 wins
    assert "| 36 | 0 (0.0%) |" in text and "| 45.0 |" in text  # normal: 36 seats, no win
    assert "| hard | - | 36/36 |" in text  # every seat of hard above every seat of normal


def test_a_match_is_played_resumed_and_kept_apart_from_other_settings(tmp_path: Path) -> None:
    results = tmp_path / "match.jsonl"
    known = ladder.entrants(hard=2, deep=3)
    table = ["easy", "random", "random", "random"]
    first = ladder.run(ladder.POOL, 2, 1, 5, results, known, table)
    assert [line["game"] for line in first] == [0, 1]
    assert [line["seats"] for line in first] == [table, ladder.rotated(table, 1)]
    again = ladder.run(ladder.POOL, 3, 1, 5, results, known, table)  # only game 2 is new
    assert len(results.read_text().splitlines()) == 3
    assert [line["game"] for line in again] == [0, 1, 2]
    assert again[:2] == first
    with pytest.raises(ValueError, match="other settings"):
        ladder.run(ladder.POOL, 4, 1, 5, results, known, ["easy", "easy", "random", "random"])
    assert len(results.read_text().splitlines()) == 3


def test_a_match_resumes_when_only_an_entrant_it_never_seats_changed(tmp_path: Path) -> None:
    """A level that none of a match's games seated may change (``expert``'s budget, say):
    the match resumes, and new games record only the entrants they seat; a seated
    entrant played otherwise is refused."""
    results = tmp_path / "match.jsonl"
    known = ladder.entrants(hard=2, deep=3)
    table = ["easy", "random", "random", "random"]
    ladder.run(ladder.POOL, 1, 1, 5, results, known, table)
    (first,) = ladder.read_results(results)
    assert sorted(first["settings"]["entrants"]) == ["easy", "random"]
    old = {**first, "settings": {**first["settings"], "entrants": {**known, "deep": ["x", {}]}}}
    results.write_text(json.dumps(old) + "\n")  # as a file written with every entrant known
    again = ladder.run(ladder.POOL, 2, 1, 5, results, ladder.entrants(hard=2, deep=4), table)
    assert [line["game"] for line in again] == [0, 1]
    with pytest.raises(ValueError, match="other settings"):
        ladder.run(ladder.POOL, 3, 1, 5, results, {**known, "easy": ("greedy", {})}, table)
    assert len(results.read_text().splitlines()) == 2


def test_a_ladder_played_on_a_cluster_is_the_one_played_here(
    tmp_path: Path, dask_scheduler: str
) -> None:
    known = ladder.entrants(hard=2, deep=3)
    pool = ["easy", "random", "greedy-plain", "normal", "hard"]
    here = ladder.run(pool, 6, 1, 8, tmp_path / "here.jsonl", known)
    there = ladder.run(pool, 6, 1, 8, tmp_path / "there.jsonl", known, cluster=dask_scheduler)
    assert here == there and len(here) == 6
    assert (tmp_path / "here.jsonl").read_text() == (tmp_path / "there.jsonl").read_text()


def test_one_fit_reads_several_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = []
    for name, seats in (("one", ["easy", "random", "random"]), ("two", ["random"] * 3)):
        path = tmp_path / f"{name}.jsonl"
        line = {"game": 0, "seats": seats, "scores": [9, 5, 1], "winners": [0], "settings": {}}
        path.write_text(json.dumps(line) + "\n")
        paths += ["--results", str(path)]
    assert ladder.main(["--fit", "--resamples", "5", *paths]) == 0
    out = capsys.readouterr().out
    assert "one.jsonl: 1 games" in out and "two.jsonl: 1 games" in out
    assert "| random | " in out and "| easy | " in out
    assert "| 5 | 1 (20.0%) |" in out  # random: 2 seats of one file, 3 of the other


def test_a_variant_entrant_is_played_by_its_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = tmp_path / "variant.jsonl"
    variant = {"iterations": 2, "exploration": 0.3}
    argv = ["--table", "v,random,random", "--games", "1", "--results", str(results)]
    argv += ["--resamples", "2", "--entrant", "v=" + json.dumps(variant)]
    assert ladder.main(argv) == 0
    (line,) = ladder.read_results(results)
    assert line["seats"] == ["v", "random", "random"]
    assert line["settings"]["entrants"]["v"] == ["ismcts", variant]
    assert "| v | " in capsys.readouterr().out
    with pytest.raises(SystemExit):
        ladder.main(["--table", "w,random,random", "--entrant", "w={iterations"])
    assert "NAME={JSON options} expected" in capsys.readouterr().err


def test_renaming_lets_a_changed_level_be_fitted_beside_its_earlier_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``hard`` was 150 iterations in one file and is 600 in another: one fit refuses them,
    until the earlier ``hard`` is renamed (and only the names change)."""

    def game(seats: list[str], hard: int) -> dict[str, object]:
        entrants = {"hard": ["ismcts", {"iterations": hard}], "random": ["random", {}]}
        settings = {"seed": 1, "table": seats, "entrants": entrants}
        return {
            "game": 0,
            "seats": seats,
            "scores": [9, 5, 1],
            "winners": [0],
            "settings": settings,
        }

    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    before.write_text(json.dumps(game(["hard", "random", "random"], 150)) + "\n")
    after.write_text(json.dumps(game(["random", "hard", "random"], 600)) + "\n")
    fit = ["--fit", "--resamples", "2", "--results", str(before), "--results", str(after)]
    with pytest.raises(SystemExit):
        ladder.main(fit)
    assert "'hard' was played under two definitions" in capsys.readouterr().err

    assert ladder.main(["--rename", "hard=ismcts-150", "--results", str(before)]) == 0
    (line,) = ladder.read_results(before)
    assert line["seats"] == ["ismcts-150", "random", "random"]
    assert line["settings"]["table"] == line["seats"]
    assert line["settings"]["entrants"]["ismcts-150"] == ["ismcts", {"iterations": 150}]
    assert "hard" not in line["settings"]["entrants"]
    assert (line["scores"], line["winners"]) == ([9, 5, 1], [0])
    assert ladder.main(fit) == 0
    out = capsys.readouterr().out
    assert "| ismcts-150 | " in out and "| hard | " in out

    kept = before.read_text()
    for pairs, said in [
        (["hard="], "OLD=NEW, each OLD once"),
        (["random=ismcts-150"], "would merge two entrants into 'ismcts-150'"),
        (["ismcts-150=x", "random=x"], "would merge two entrants into 'x'"),
        (["nobody=x"], "no game has an entrant 'nobody'"),
    ]:
        with pytest.raises(SystemExit):
            ladder.main([arg for pair in pairs for arg in ("--rename", pair)] + fit[3:5])
        assert said in capsys.readouterr().err, pairs
        assert before.read_text() == kept, "a refused rename writes nothing"
    with pytest.raises(SystemExit):
        ladder.main(["--rename", "a=b", "--results", str(tmp_path / "none.jsonl")])
    assert "they must exist" in capsys.readouterr().err
    assert not (tmp_path / "none.jsonl").exists()
