"""``tyros-play``: one command for a local game against bots.

It starts a server on a free loopback port (its SQLite file in the user's data
directory), opens the terminal client in the first seat and fills the other
seats with bots, all in this one process. Logs go to ``play.log`` next to the
database, so that they do not scribble over the screen.

A game left before its end is not lost: the seats' tokens are kept in
``play.json`` next to the database, and the next ``tyros-play`` takes the game
up where it was (``--new`` starts another one instead). Finished games stay in the
database: ``--replay [N]`` opens the last one (or the Nth last) as a replay seen as
the player, ``--review [N]`` with a review of the player's decisions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import re
import secrets
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from tyros_rules import RecordError
from tyros_server.app import ServerConfig, TyrosServer
from tyros_server.records import RecordUnavailable, stored_record
from tyros_server.storage import Store, StoreOpenError

from .botclient import BotGiveUp, BotRun, play_bot
from .bots import strategies
from .bots.levels import add_level_options, chosen
from .paths import data_dir
from .replay import Replay
from .tui.app import TyrosApp
from .tui.main import build, build_replay, default_name, name_problem, run_screen
from .tui.net import JoinOptions, NetClient
from .tui.settings import SETTINGS_FILE, SettingsFile

log = logging.getLogger("tyros.play")

JOIN_SECONDS = 15.0
SAVED = "play.json"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tyros-play", description="Play Tyros in the terminal against bots."
    )
    parser.add_argument(
        "--bots",
        type=int,
        choices=(2, 3),
        default=3,
        help="how many bots (2: a 3-player game, 3: a 4-player game; default: 3)",
    )
    add_level_options(parser, list(strategies()))
    parser.add_argument("--name", default=None, help="your name (default: your login)")
    parser.add_argument(
        "--setup",
        choices=("first", "variable"),
        default="first",
        help="where the four empires start: first, the first-game spaces (the default), or "
        "variable, start spaces drawn from the tiles",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the game and the bots")
    parser.add_argument(
        "--trade-seconds",
        type=int,
        default=60,
        metavar="N",
        help="seconds you have to answer a bot's trade offer (default: 60)",
    )
    parser.add_argument(
        "--new", action="store_true", help="start a new game even if one was left unfinished"
    )
    parser.add_argument(
        "--replay",
        type=int,
        nargs="?",
        const=1,
        metavar="N",
        help="watch your last finished game again (N: the Nth last), every hand open",
    )
    parser.add_argument(
        "--review",
        type=int,
        nargs="?",
        const=1,
        metavar="N",
        help="the same, with a review of your decisions (a bot weighs each against the others "
        "you had; a minute or two)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="directory for the database and the log (default: the user's data directory)",
    )
    args = parser.parse_args(argv)
    problem = None if args.name is None else name_problem(args.name)
    if problem is not None:
        parser.error(problem)
    return args


def _load_saved(path: Path) -> dict[str, Any] | None:
    try:
        saved = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    keys = {"table", "players", "strategy", "human", "bots", "seed"}
    if not isinstance(saved, dict) or not keys <= set(saved):
        return None
    tokens = [saved["human"], *saved["bots"]] if isinstance(saved["bots"], list) else [None]
    return saved if all(isinstance(token, str) for token in tokens) else None


def _save(path: Path, saved: dict[str, Any]) -> None:
    try:
        fd = os.open(path.with_suffix(".tmp"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(saved, handle, indent=1)
        os.replace(path.with_suffix(".tmp"), path)
    except OSError:
        log.exception("cannot save the game's seats in %s", path)


async def play(
    args: argparse.Namespace,
    *,
    colour: bool | None = None,
    ready: asyncio.Future[TyrosApp] | None = None,
) -> dict[str, Any] | None:
    """Run a local game until the player quits; returns the score sheet if it ended.

    ``ready`` (for tests) gets the client's :class:`TyrosApp` once the server runs.
    """
    directory: Path = args.data or data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    saved_path = directory / SAVED
    server = TyrosServer(
        ServerConfig(host="127.0.0.1", port=0, db=str(directory / "play.db"), allow_seed=True)
    )
    await server.start()
    url = f"ws://127.0.0.1:{server.port}"
    saved = None if args.new else _load_saved(saved_path)
    if saved is not None:
        known = server.session.tables.get(saved["table"])
        if known is None or known.finished or len(saved["bots"]) != saved["players"] - 1:
            saved = None
    resumed = saved is not None
    if saved is None:
        players = args.bots + 1
        seed = args.seed if args.seed is not None else random.randrange(2**62)
        strategy, options = chosen(args)
        saved = {
            "table": f"local-{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(3)}",
            "players": players,
            "strategy": strategy,
            "options": options,
            "level": args.level if args.strategy is None else args.strategy,
            "seed": seed,
            "human": None,
            "bots": [],
        }
    table, players = str(saved["table"]), int(saved["players"])
    ui, net = build(
        url,
        table,
        args.name or default_name(),
        options=JoinOptions(
            players=players, setup=args.setup, seed=saved["seed"], trade_seconds=args.trade_seconds
        ),
        colour=colour,
        settings=SettingsFile(directory / SETTINGS_FILE),
    )
    net.session.token = saved["human"]
    net.state.bot_names = {f"bot-{i + 1}" for i in range(players - 1)}
    if resumed:  # (the saved game's seats, names and level, whatever this command said)
        net.state.note(
            f"your unfinished game is taken up where you left it ({players - 1} bots, level "
            f"{saved.get('level', '?')}): 'tyros-play --new' starts another",
            error=False,
        )
    else:
        net.state.note(
            f"playing against {players - 1} bots, level {saved.get('level', '?')}", error=False
        )
    rng = random.Random(saved["seed"])
    bots: list[asyncio.Task[dict[str, Any]]] = []
    net_task = asyncio.create_task(net.run())
    starter = asyncio.create_task(_start_bots(net, bots, url, saved, args, rng, saved_path))
    if ready is not None and not ready.done():
        ready.set_result(ui)
    try:
        await ui.application.run_async()
    finally:
        starter.cancel()
        net.stop()
        for task in [*bots, net_task]:
            task.cancel()
        await asyncio.gather(starter, net_task, *bots, return_exceptions=True)
        await server.stop()
    game = net.state.game
    score = None if game is None or game.score is None else game.score.wire()
    if score is not None:
        with contextlib.suppress(OSError):
            saved_path.unlink()
    return score


async def _start_bots(
    net: NetClient,
    bots: list[asyncio.Task[dict[str, Any]]],
    url: str,
    saved: dict[str, Any],
    args: argparse.Namespace,
    rng: random.Random,
    saved_path: Path,
) -> None:
    """Seat the bots once the player holds the first seat (seats fill in join order), then
    keep every seat's token so that the game can be taken up again."""
    deadline = time.monotonic() + JOIN_SECONDS
    while net.state.seat is None:
        if time.monotonic() > deadline or net.state.fatal:
            net.state.note("the local server did not seat you; see play.log")
            return
        await asyncio.sleep(0.02)
    tokens: list[str | None] = list(saved["bots"])
    runs = []
    for i in range(saved["players"] - 1):
        run = BotRun(
            url,
            saved["table"],
            f"bot-{i + 1}",
            saved["strategy"],
            saved["players"],
            args.setup,
            options=dict(saved.get("options") or {}),
            token=tokens[i] if i < len(tokens) else None,
        )
        runs.append(run)
        bots.append(asyncio.create_task(_bot(run, random.Random(rng.random()))))
        if run.token is None:  # a new seat: the next bot joins after this one
            while run.seat is None and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
    while any(run.token is None for run in runs) and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    _save(saved_path, {**saved, "human": net.session.token, "bots": [run.token for run in runs]})


async def _bot(run: BotRun, rng: random.Random) -> dict[str, Any]:
    try:
        return await play_bot(run, rng)
    except BotGiveUp:
        log.exception("bot %s gave up", run.name)
        return {}


def finished_games(directory: Path) -> list[tuple[str, float]]:
    """The finished games kept in ``play.db``, oldest first: (table, when it was created)."""
    path = directory / "play.db"
    if not path.exists():
        return []
    store = Store(str(path), create=False)
    try:
        return [(name, created) for name, created, done, _ in store.table_list() if done]
    finally:
        store.close()


class NoGame(Exception):
    """The game asked for cannot be looked back at (the message says why)."""


def look_back_screen(args: argparse.Namespace, directory: Path) -> TyrosApp:
    """``--replay [N]`` / ``--review [N]``: the screen of the Nth last finished game, a replay
    seen as the player (raises :class:`NoGame`)."""
    back = args.review if args.review is not None else args.replay
    try:
        games = finished_games(directory)
    except StoreOpenError as exc:
        raise NoGame(str(exc)) from exc
    if not 1 <= back <= len(games):
        kept = f"{len(games)} finished game{'s' * (len(games) != 1)}" if games else "none"
        raise NoGame(f"no game {back} back: {kept} kept in {directory}")
    table, created = games[-back]
    store = Store(str(directory / "play.db"), create=False)
    try:
        replay = Replay(stored_record(store, table))
    except (RecordUnavailable, RecordError, ValueError) as exc:
        raise NoGame(f"cannot replay {table}: {exc}") from exc
    finally:
        store.close()
    player = next(
        (seat for seat, name in enumerate(replay.names) if not re.fullmatch(r"bot-\d+", name)), 0
    )
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(created))
    return build_replay(replay, viewer=player, title=f"game of {when}")


def look_back(args: argparse.Namespace, directory: Path) -> int:
    try:
        ui = look_back_screen(args, directory)
    except NoGame as exc:
        print(f"tyros-play: {exc}", file=sys.stderr)
        return 1
    return run_screen(ui, review=args.review is not None)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    directory: Path = args.data or data_dir()
    if args.replay is not None or args.review is not None:
        return look_back(args, directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"tyros-play: cannot create {directory}: {exc}", file=sys.stderr)
        return 1
    logging.basicConfig(
        filename=str(directory / "play.log"),
        level=logging.INFO,
        format="%(asctime)s %(name)s %(levelname)s: %(message)s",
    )
    score = None
    with contextlib.suppress(KeyboardInterrupt):
        score = asyncio.run(play(args))
    data = "" if args.data is None else f" --data {shlex.quote(str(args.data))}"
    if score is None and (directory / SAVED).exists():
        print(
            "tyros-play: the game is saved; run the same command again (without --new) to "
            "take it up where you left it"
        )
    elif score is not None:
        print(
            f"tyros-play: the game is kept: 'tyros-play{data} --replay' watches it again, "
            f"'tyros-play{data} --review' reviews your decisions"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
