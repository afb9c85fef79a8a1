"""Where a run's games are played: here, in processes of this machine, or on a Dask cluster.

A :class:`Game` holds everything one arena game needs (strategies, setup, seeds, the bots'
options); :func:`.arena.play` plays it anywhere and returns a :class:`Played` that a
process or a cluster can send back. :func:`play_all` plays a list of them and gives the
results in the list's order, so a run adds up the same whoever played it: every seed comes from the
run's seed and the game's number (:func:`.arena.derive_seed`), never from the worker.

    tyros-arena --games 400 --jobs 2                          # two processes here
    tyros-arena --games 400 --cluster tcp://10.0.0.5:8786     # a Dask scheduler's workers

A cluster is Dask's (``pip install 'tyros[cluster]'`` on every machine): start
``dask scheduler`` on one machine and ``dask worker tcp://HOST:8786`` on each machine
that lends its cores; each worker needs tyros installed, at the same version.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Game:
    """One game of a run: seat ``s`` is played by ``seats[s]`` with ``bot_options`` and
    then ``seat_options[s]`` (if given) as its options."""

    seats: tuple[str, ...]
    setup: str
    seed: int
    game: int
    bot_options: dict[str, Any] = field(default_factory=dict)
    seat_options: tuple[dict[str, Any], ...] | None = None
    record: bool = False
    """Send back the game's record (``tyros-arena --record``)."""


@dataclass(frozen=True)
class Played:
    """What a :class:`Game` produced, small enough to send back from a worker."""

    game: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int
    seconds: float
    record: dict[str, Any] | None = None


class ClusterUnavailable(RuntimeError):
    """Dask is not installed, or its scheduler cannot be reached."""


Play = Callable[[Game], Played]
"""What plays one game (:func:`.arena.play`): a module-level function, so that a worker
process or a cluster's worker finds it by name."""


CONNECT_TIMEOUT = "10s"
"""How long a scheduler may take to answer (Dask retries a refused connection until then)."""


def play_all(
    play: Play, jobs: Sequence[Game], *, processes: int = 1, cluster: str | None = None
) -> Iterator[Played]:
    """``play`` each of ``jobs`` and give their results in the order of ``jobs``: on the
    Dask scheduler at ``cluster``'s workers, else in ``processes`` processes here (1: this
    one)."""
    if cluster is not None:
        return _on_cluster(play, jobs, cluster)
    if processes > 1:
        return _in_processes(play, jobs, processes)
    return map(play, jobs)


def _in_processes(play: Play, jobs: Sequence[Game], processes: int) -> Iterator[Played]:
    with ProcessPoolExecutor(max_workers=processes) as workers:
        yield from workers.map(play, jobs)


def _on_cluster(play: Play, jobs: Iterable[Game], address: str) -> Iterator[Played]:
    try:
        from distributed import Client
    except ImportError as exc:
        raise ClusterUnavailable(
            "a cluster needs Dask: pip install 'tyros[cluster]' (on every machine)"
        ) from exc
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except OSError as exc:
        raise ClusterUnavailable(f"no Dask scheduler answers at {address}: {exc}") from exc
    with client:
        # pure=False: two equal jobs are still two games (a worker never reuses a result).
        futures = client.map(play, list(jobs), pure=False)
        for future in futures:
            yield future.result()


__all__ = ["ClusterUnavailable", "Game", "Play", "Played", "play_all"]
