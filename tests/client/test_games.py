"""Where a run's games are played (:mod:`tyros_client.games`): the same results here, in
processes and on a Dask cluster."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tyros_client import arena, games
from tyros_client.arena import play
from tyros_client.games import ClusterUnavailable, Game, play_all

LINE_UP = ["greedy", "random", "random", "random"]


def outcome(result: arena.ArenaResult) -> dict[str, Any]:
    """A run's results without its speed."""
    out = result.to_json()
    del out["games_per_second"]
    return out


def test_a_seeded_40_game_arena_is_the_same_here_in_processes_and_on_a_cluster(
    dask_scheduler: str, tmp_path: Path
) -> None:
    here = arena.run_arena(LINE_UP, 40, seed=9, setup="mixed", record_dir=tmp_path / "here")
    processes = arena.run_arena(LINE_UP, 40, seed=9, setup="mixed", processes=2)
    cluster = arena.run_arena(
        LINE_UP, 40, seed=9, setup="mixed", cluster=dask_scheduler, record_dir=tmp_path / "cluster"
    )
    assert outcome(here) == outcome(processes) == outcome(cluster)
    assert here.games == 40 and here.wins["greedy"] > 20  # the games were really played
    for game in (0, 17, 39):  # and each is the same game, record for record
        name = f"game-{game:04d}.json"
        assert (tmp_path / "here" / name).read_bytes() == (tmp_path / "cluster" / name).read_bytes()


def test_results_come_in_the_order_of_the_games_asked_for(dask_scheduler: str) -> None:
    jobs = [Game(seats=("random",) * 3, setup="first", seed=2, game=g) for g in (5, 1, 3)]
    assert [p.game for p in play_all(play, jobs, cluster=dask_scheduler)] == [5, 1, 3]
    assert [p.scores for p in play_all(play, jobs, processes=2)] == [play(j).scores for j in jobs]


def test_an_unreachable_scheduler_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    # (Dask retries a refused connection until its timeout: the shipped 10 s, twice, is waiting)
    monkeypatch.setattr(games, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(ClusterUnavailable, match="no Dask scheduler answers"):
        list(play_all(play, [], cluster="tcp://127.0.0.1:9"))
    assert arena.main(["--games", "2", "--cluster", "tcp://127.0.0.1:9"]) == 2
    assert "no Dask scheduler answers at tcp://127.0.0.1:9" in capsys.readouterr().err
