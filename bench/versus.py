"""A match across versions, over the protocol: one bot of this code against three bots of
an older commit, at a server of the older commit.

    python bench/versus.py --make-old ab150b0 --old /work/venv-ab150b0     # build it, once
    python bench/versus.py --old /work/venv-ab150b0 --games 200 --seed 104729 \\
        --results versus.jsonl --jobs 2                 # play (or go on), then the summary
    python bench/versus.py --old VENV --results r.jsonl --new-option iterations=300   # hard at 300
    python bench/versus.py --fit --results versus.jsonl  # ladder.py's fit, these entrants known

``--make-old COMMIT`` extracts the commit into VENV/src (``git archive``), makes the venv
and installs it there (not editable); VENV/tyros-commit names the commit. A match starts
one ``tyros-server`` of that venv (loopback, a free port, a temporary database). Game ``g``
is a 4-player table with the first-game setup and ``tyros-arena``'s deal of game ``g``:
the new bot (``tyros-bot`` of the venv running this) in seat ``g % 4``, an old bot in each
other seat, each one ``tyros-bot --count 1`` seeded from ``--seed``, ``g`` and its seat,
started once the seat before is taken (seats go in join order), as a spectator of the table
sees. The deal and every seed are the same on every run (the seed the server reveals at the end is
checked), but the play may differ: the bots play over the network, each in its own time.

A level plays at its reproducible budget (a search's iterations, no cap in seconds), by
``--level`` where that venv's ``tyros-bot`` has it, else by ``--strategy`` and
``--iterations``/``--move-time`` (a level with other options cannot play there: ``easy``'s
slip before ``--level``). A level's ``answer_iterations`` goes with ``--answer-iterations``
(``--iterations`` alone is every decision's budget, answers too): a version whose level has
it and whose ``tyros-bot`` lacks that flag is refused (from ``4447355`` until the flag came,
``--iterations`` set the answers' budget too; from ``44ddff6`` to ``13fe5ae`` it did not,
but their flags cannot tell them apart).
``--new-option`` takes what ``tyros-bot`` has flags for: ``iterations``,
``answer_iterations`` and ``move_time``.

Each game is one line of ``--results`` in ``bench/ladder.py``'s format (seats named
``new-LEVEL`` and ``old-LEVEL``, the old commit in the settings), written as it ends; games
there are not played again, and a file of other settings is refused. A bot that exits with
an error, or a game in which nothing happens for ``--stall`` seconds, stops the run with an
error (the bot's stderr shown).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
import ladder
from _common import ONE_ADDRESS_CROWD, free_port
from tyros_client import arena
from tyros_client.session import Join, hello_message
from tyros_protocol.messages import Error, TableUpdate, Update, parse_server_message
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
FLAGGED = {
    "iterations": "--iterations",
    "answer_iterations": "--answer-iterations",
    "move_time": "--move-time",
}
"""The search options ``tyros-bot`` takes on its command line (where its version has the flag)."""
DESCRIBE = (
    "import json; from tyros_client.bots.levels import LEVELS; "
    "print(json.dumps({n: [v.strategy, dict(v.options)] for n, v in LEVELS.items()}))"
)


class MatchError(RuntimeError):
    """A bot died, a game stalled, the server went away: the run cannot go on."""


@dataclass(frozen=True)
class Side:
    """The bots of one version: its venv, its entrant's name, what it plays, its flags."""

    venv: Path
    name: str
    strategy: str
    options: dict[str, Any]
    flags: tuple[str, ...]


def table_seed(seed: int, game: int) -> int:
    """The deal of game ``game``: ``tyros-arena``'s (and ``bench/ladder.py``'s) game."""
    return arena.derive_seed(seed, "game", game)


def bot_seed(seed: int, game: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of game ``game``: the arena's for that seat."""
    return arena.derive_seed(seed, "bot", game, seat)


def seating(new: str, old: str, game: int) -> list[str]:
    """The entrants of game ``game`` in seat order: the new bot in seat ``game % 4``.

    >>> seating("new-hard", "old-hard", 1)
    ['old-hard', 'new-hard', 'old-hard', 'old-hard']
    """
    return ladder.rotated([new, old, old, old], game)


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs, each value as JSON where it reads as JSON.

    >>> parse_options(["iterations=300", "move_time=0.5", "value=learned"])
    {'iterations': 300, 'move_time': 0.5, 'value': 'learned'}
    """
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"{pair!r} is not KEY=VALUE")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    return options


def side(
    venv: Path,
    prefix: str,
    level: str,
    levels: dict[str, Any],
    flags: Collection[str],
    extra: dict[str, Any] | None = None,
) -> Side:
    """The bots of ``level`` (one of ``levels``, the venv's, or ``random``) with ``extra``
    options, as that venv's ``tyros-bot`` plays them (``flags``: the options it has).

    >>> hard = {"hard": ["ismcts", {"iterations": 150, "move_time": 0.3}]}
    >>> side(Path("v"), "old", "hard", hard, {"--iterations"}).flags
    ('--strategy', 'ismcts', '--iterations', '150')
    >>> side(Path("v"), "new", "hard", hard, {"--level", "--iterations"}, {"iterations": 300}).flags
    ('--level', 'hard', '--iterations', '300')
    """
    known = {"random": ["random", {}], **levels}
    if level not in known:
        raise ValueError(f"no level {level!r} in {venv}: {', '.join(sorted(known))}")
    unflagged = sorted(set(extra or {}) - set(FLAGGED))
    if unflagged:
        raise ValueError(
            f"tyros-bot has no flag for {', '.join(unflagged)}: only {', '.join(FLAGGED)}"
        )
    strategy, options = known[level][0], {**known[level][1], **(extra or {})}
    if "iterations" in options and "move_time" not in (extra or {}):
        options.pop("move_time", None)  # the reproducible budget: its iterations alone
    by_level = "--level" in flags and level in levels
    flagged = {key for key, flag in FLAGGED.items() if flag in flags}
    own = set(known[level][1]) - set(extra or {}) if by_level else set()
    if "iterations" in options:
        own.discard("answer_iterations")  # --iterations alone sets the answers' budget too
    unflagged = sorted(set(options) - flagged - own)
    if unflagged:
        raise ValueError(f"{venv}'s tyros-bot cannot play {level}: no flag for {unflagged}")
    chosen = ["--level", level] if by_level else ["--strategy", strategy]
    for key, flag in FLAGGED.items():
        if key in options and key in flagged:  # (the rest the level sets by --level)
            chosen += [flag, str(options[key])]
    return Side(venv, f"{prefix}-{level}", strategy, options, tuple(chosen))


def output(*command: str | Path, cwd: Path | None = None) -> str:
    """What ``command`` prints; its failure is a :class:`MatchError` with its stderr."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise MatchError(f"{' '.join(map(str, command))} failed: {done.stderr[-2000:]}")
    return done.stdout


def describe(venv: Path) -> tuple[dict[str, Any], frozenset[str], str | None]:
    """A venv's levels, the options its ``tyros-bot`` has, and its commit."""
    levels = json.loads(output(venv / "bin" / "python", "-c", DESCRIBE))
    usage, marker = output(venv / "bin" / "tyros-bot", "--help"), venv / "tyros-commit"
    flags = frozenset(re.findall(r"^\s+(?:-\w, )?(--[a-z][a-z-]*)", usage, re.MULTILINE))
    return levels, flags, marker.read_text().strip() if marker.exists() else None


def make_old(commit: str, venv: Path) -> None:
    """``git archive COMMIT`` into VENV/src, a venv at VENV, that folder installed in it."""
    if venv.exists():
        raise MatchError(f"{venv} exists: remove it, or play with --old {venv}")
    full = output("git", "rev-parse", "--verify", f"{commit}^{{commit}}", cwd=ROOT).strip()
    output(sys.executable, "-m", "venv", venv)
    (venv / "src").mkdir()
    archive = subprocess.Popen(["git", "archive", full], cwd=ROOT, stdout=subprocess.PIPE)
    tar = subprocess.run(["tar", "-x", "-C", str(venv / "src")], stdin=archive.stdout)
    if archive.wait() != 0 or tar.returncode != 0:
        raise MatchError(f"git archive {full} | tar -x failed")
    output(venv / "bin" / "python", "-m", "pip", "install", "--quiet", venv / "src")
    (venv / "tyros-commit").write_text(full + "\n")


def summary(lines: Sequence[dict[str, Any]], new: str, old: str) -> dict[str, Any]:
    """The new entrant's record: wins (a shared win counts) with a 95% Wilson interval,
    mean scores, and how often it placed above a seat of the old one."""
    seats: dict[str, list[tuple[dict[str, Any], int]]] = {new: [], old: []}
    for line in lines:
        for seat, name in enumerate(line["seats"]):
            seats.setdefault(name, []).append((line, seat))
    wins = sum(seat in line["winners"] for line, seat in seats[new])
    above, met = ladder.meetings([ladder.placements(line) for line in lines], new, old)
    mean = {n: sum(x["scores"][s] for x, s in seats[n]) / max(1, len(seats[n])) for n in seats}
    interval = arena.wilson_interval(wins, len(seats[new]))
    record = {"games": len(lines), "wins": wins, "seats": len(seats[new]), "mean": mean}
    return {**record, "interval": interval, "above": above, "meetings": met}


def summary_text(s: dict[str, Any], new: str, old: str) -> str:
    """The summary in words.

    >>> line = {"seats": ["n", "o", "o", "o"], "scores": [50, 60, 40, 30], "winners": [1]}
    >>> print(summary_text(summary([line], "n", "o"), "n", "o"))
    games: 1 (n against three o; a seat's share of wins is 25%)
    n won 0 (0.0%), 95% Wilson interval [0.0%, 79.3%]
    mean score: n 50.0, o 43.3
    n placed above an o seat in 2 of 3 meetings
    """
    low, high = s["interval"]
    rate = s["wins"] / s["seats"] if s["seats"] else 0.0
    return (
        f"games: {s['games']} ({new} against three {old}; a seat's share of wins is 25%)\n"
        f"{new} won {s['wins']} ({rate:.1%}), 95% Wilson interval [{low:.1%}, {high:.1%}]\n"
        f"mean score: {new} {s['mean'][new]:.1f}, {old} {s['mean'][old]:.1f}\n"
        f"{new} placed above an {old} seat in {s['above']} of {s['meetings']} meetings"
    )


SERVER = "--allow-seed --host 127.0.0.1 --takeover off --backup-minutes 0 --log-level WARNING"
"""The old server's flags (besides its port and database): no bot of its own plays a seat
whose bot is gone, so that a bot that died stops its game."""


def bot_command(
    who: Side, url: str, table: str, name: str, seed: int, deal: int | None
) -> list[str]:
    """One bot of ``who``'s version at ``table`` (creating it with the deal ``deal``)."""
    command = [str(who.venv / "bin" / "tyros-bot"), url.removeprefix("ws://"), "--table", table]
    command += ["--count", "1", "--players", "4", "--setup", "first", "--forget", "--quiet"]
    command += list(who.flags)
    command += ["--name", name, "--seed", str(seed)]
    return command if deal is None else [*command, "--table-seed", str(deal)]


@dataclass
class Bot:
    name: str
    proc: asyncio.subprocess.Process
    stderr: Path


@dataclass
class Table:
    """One game's table: its bots' processes, and what a spectator of it sees over the
    protocol (its seats and, at the end, its score sheet)."""

    url: str
    name: str
    stall: float
    bots: list[Bot] = field(default_factory=list)
    seats: list[str | None] = field(default_factory=list)
    scores: list[int] | None = None
    winners: list[int] = field(default_factory=list)
    deal: int | None = None
    """The game's seed, as the server reveals it once the game is over."""
    moved: float = field(default_factory=time.monotonic)
    """When the table last changed (the stall's clock)."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def watch(self) -> None:
        """The spectator: asks again until the table exists (its first bot creates it)."""
        hello = json.dumps(hello_message(Join(self.name, "referee", spectate=True)))
        async with connect(self.url, compression=None, max_size=2**24) as ws:
            await ws.send(hello)
            async for frame in ws:
                message = parse_server_message(frame)
                if isinstance(message, Error):
                    if message.code.value != "no_such_table":
                        raise MatchError(f"spectating {self.name}: {message}")
                    await asyncio.sleep(0.05)  # not created yet
                    await ws.send(hello)
                    continue
                if isinstance(message, TableUpdate):
                    self.seats = [seat.name for seat in message.table.seats]
                    self.deal = message.table.seed
                elif isinstance(message, Update) and message.view.score is not None:
                    totals = {player.seat: player.total for player in message.view.score.players}
                    self.scores = [totals[seat] for seat in range(len(totals))]
                    self.winners = list(message.view.score.winners)
                self.moved = time.monotonic()
                self.changed.set()

    async def until(self, test: Callable[[], bool], watcher: asyncio.Task[None], what: str) -> None:
        """Until ``test()`` holds; a bot exiting with an error, the spectator failing, or
        ``stall`` seconds in which the table does not change is a :class:`MatchError`."""
        exits = {asyncio.ensure_future(bot.proc.wait()) for bot in self.bots}
        try:
            while not test():
                for bot in self.bots:
                    if bot.proc.returncode not in (None, 0):  # (0: it saw the game end)
                        err = bot.stderr.read_text(errors="replace")[-3000:]
                        code = bot.proc.returncode
                        raise MatchError(
                            f"{self.name}: bot {bot.name} exited with {code} "
                            f"(waiting for {what}); its stderr:\n{err}"
                        )
                if watcher.done():
                    watcher.result()
                    raise MatchError(f"the spectator of {self.name} lost the server")
                left = self.moved + self.stall - time.monotonic()
                if left <= 0:
                    raise MatchError(
                        f"{self.name}: nothing for {self.stall:g} s (waiting for {what})"
                    )
                self.changed.clear()
                changed = asyncio.ensure_future(self.changed.wait())
                exits = {task for task in exits if not task.done()}
                await asyncio.wait(
                    {changed, watcher, *exits}, timeout=left, return_when=asyncio.FIRST_COMPLETED
                )
                changed.cancel()
        finally:
            for task in exits:
                task.cancel()


@dataclass
class Match:
    url: str
    new: Side
    old: Side
    seed: int
    stall: float
    logs: Path
    settings: dict[str, Any]


async def play(match: Match, game: int) -> dict[str, Any]:
    """Game ``game`` over the protocol: its line of the results."""
    seats = seating(match.new.name, match.old.name, game)
    table = Table(match.url, f"game-{game}", match.stall)
    watcher = asyncio.create_task(table.watch())
    started, env = time.monotonic(), {**os.environ, "XDG_DATA_HOME": str(match.logs)}
    try:
        for seat, entrant in enumerate(seats):
            who, name = match.new if entrant == match.new.name else match.old, f"{entrant}-{seat}"
            deal = table_seed(match.seed, game) if seat == 0 else None
            seed = bot_seed(match.seed, game, seat)
            command = bot_command(who, match.url, table.name, name, seed, deal)
            stderr = match.logs / f"{table.name}-{name}.err"
            with stderr.open("wb") as err:
                proc = await asyncio.create_subprocess_exec(
                    *command, stdout=subprocess.DEVNULL, stderr=err, env=env
                )
            table.bots.append(Bot(name, proc, stderr))

            def taken(seat: int = seat, name: str = name) -> bool:  # tyros-bot adds "-1"
                return (table.seats[seat:] or [""])[0] == f"{name}-1"

            await table.until(taken, watcher, f"seat {seat}")
        await table.until(lambda: table.scores is not None, watcher, "the end of the game")

        def done() -> bool:  # every bot gone, the game's seed revealed
            return table.deal is not None and all(b.proc.returncode is not None for b in table.bots)

        await table.until(done, watcher, "the bots to leave and the seed")
        if table.deal != table_seed(match.seed, game):
            raise MatchError(f"{table.name} was dealt {table.deal}: the server took no seed")
    finally:
        watcher.cancel()
        await asyncio.gather(watcher, return_exceptions=True)  # (its connection closed)
        for bot in table.bots:
            if bot.proc.returncode is None:
                bot.proc.kill()
                await bot.proc.wait()
    line = {"game": game, "seats": seats, "scores": table.scores, "winners": table.winners}
    return {**line, "settings": match.settings, "seconds": round(time.monotonic() - started, 1)}


async def play_all(match: Match, games: list[int], jobs: int, path: Path) -> list[dict[str, Any]]:
    """The games, ``jobs`` tables at once, each appended to ``path`` as it ends."""
    queue, played = list(games), []
    with path.open("a") as out:

        async def worker() -> None:
            while queue:
                line = await play(match, queue.pop(0))
                out.write(json.dumps(line) + "\n")
                out.flush()  # a run stopped half-way keeps every game it finished
                played.append(line)
                order = " > ".join(ladder.placements(line))
                print(f"game {line['game']} ({line['seconds']} s): {order}", file=sys.stderr)

        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(min(jobs, len(games))):
                    group.create_task(worker())
        except ExceptionGroup as group:
            errors = [str(exc) for exc in group.exceptions if isinstance(exc, MatchError)]
            if len(errors) < len(group.exceptions):
                raise
            raise MatchError("\n".join(errors)) from None
    return played


async def wait_for_server(server: subprocess.Popen[bytes], url: str) -> None:
    """Until the server takes a connection (it exiting is an error)."""
    while server.poll() is None:
        try:
            async with connect(url):
                return
        except OSError:
            await asyncio.sleep(0.05)
    raise MatchError(f"the old server exited with {server.returncode}")


def run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[dict[str, Any]]:
    """Play the games of ``range(args.games)`` not in the results yet; every game there."""
    here, new_flags, _ = describe(Path(sys.prefix))
    there, old_flags, commit = describe(args.old)
    try:
        extra = parse_options(args.new_option)
        new = side(Path(sys.prefix), "new", args.new_level, here, new_flags, extra)
        old = side(args.old, "old", args.old_level, there, old_flags)
    except ValueError as exc:
        parser.error(str(exc))
    entrants = {who.name: [who.strategy, who.options] for who in (new, old)}
    table = seating(new.name, old.name, 0)
    settings = dict(seed=args.seed, table=table, setup="first", old=commit, entrants=entrants)
    settings = json.loads(json.dumps(settings))  # (as a line of the file holds them)
    try:
        lines, todo = ladder.games_to_play(args.results, settings, args.games)
    except ValueError as exc:
        parser.error(str(exc))
    if todo:
        args.results.parent.mkdir(parents=True, exist_ok=True)
        with kept_or_temporary(args.keep) as logs:
            with (logs / "server.err").open("w") as log:
                port, command = free_port(), [args.old / "bin" / "tyros-server", *SERVER.split()]
                command += [*ONE_ADDRESS_CROWD, "--port", str(port), "--db", logs / "versus.db"]
                server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
            url = f"ws://127.0.0.1:{port}"
            match = Match(url, new, old, args.seed, args.stall, logs, settings)
            try:
                asyncio.run(wait_for_server(server, url))
                lines += asyncio.run(play_all(match, todo, args.jobs, args.results))
            except MatchError as exc:
                if server.poll() is not None:  # why: the server's own words
                    words = (logs / "server.err").read_text()
                    raise MatchError(f"{exc}\nthe server exited: {words}") from None
                raise
            finally:
                server.terminate()
                try:
                    server.wait(10)
                except subprocess.TimeoutExpired:
                    server.kill()
    print(summary_text(summary(lines, new.name, old.name), new.name, old.name))
    return lines


@contextlib.contextmanager
def kept_or_temporary(keep: Path | None) -> Iterator[Path]:
    """The match's folder: ``keep`` (made if missing), or a temporary one."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep
        return
    with tempfile.TemporaryDirectory(prefix="versus-") as tmp:
        yield Path(tmp)


def fit(paths: list[Path], resamples: int) -> None:
    """``bench/ladder.py --fit`` of these files, the old entrant rated 0."""
    names = [n for path in paths for line in ladder.read_results(path) for n in line["seats"]]
    old = next((n for n in names if n.startswith("old-")), ladder.ANCHOR)
    files = [arg for path in paths for arg in ("--results", str(path))]
    ladder.main(["--fit", "--resamples", str(resamples), "--anchor", old, *files])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--old", type=Path, help="the old version's venv")
    parser.add_argument("--make-old", metavar="COMMIT", help="build --old from this commit")
    parser.add_argument("--games", type=int, default=200, help="games 0 to N-1 (default 200)")
    parser.add_argument("--seed", type=int, default=104729)
    parser.add_argument("--results", type=Path, action="append", help="one JSON line a game")
    parser.add_argument("--jobs", type=int, default=1, help="tables at once")
    parser.add_argument("--new-level", default="hard")
    parser.add_argument("--old-level", default="hard")
    parser.add_argument("--new-option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--stall", type=float, default=600.0, help="seconds without a move")
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="FOLDER",
        help="keep the server's database (FOLDER/versus.db: bench/races.py reads it) and the "
        "bots' logs there, instead of in a temporary folder (a new folder for each run: a "
        "game stopped midway there would be taken up by its server again)",
    )
    parser.add_argument("--fit", action="store_true", help="ladder.py's fit of --results")
    parser.add_argument("--resamples", type=int, default=200, help="with --fit")
    args = parser.parse_args(None if argv is None else list(argv))
    if args.fit:
        fit(args.results or parser.error("--fit needs --results"), args.resamples)
        return 0
    if args.old is None:
        parser.error("--old VENV is needed")
    try:
        if args.make_old:
            make_old(args.make_old, args.old)
            print(f"{args.old}: {args.make_old} installed")
            return 0
        if not args.results or len(args.results) > 1:
            parser.error("one --results FILE is needed")
        args.results, args.old = args.results[0], args.old.absolute()
        run(args, parser)
    except MatchError as exc:
        print(f"versus: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
