"""``tyros-client``: the command line, and the screen wired to its network task (or to a
recorded game, for a replay)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import re
import sys
from typing import Any

from tyros_protocol.basics import printable_name
from tyros_protocol.options import clock_setting
from tyros_rules import RecordError

from ..command_line import add_table_options, parse_address
from ..paths import data_dir
from ..replay import Replay, fetch_record
from ..review import check_review, read_record
from ..tls import ServerTrust, add_trust_options, trust_from_options
from ..tokens import TokenStore
from .app import TyrosApp
from .net import JoinOptions, NetClient
from .replaying import ReplayDriver, parse_viewer
from .settings import SETTINGS_FILE, SettingsFile
from .state import ClientState

NEEDS_A_TERMINAL = "tyros-client: it needs a terminal to type in (its input is not one)"


def name_problem(name: str) -> str | None:
    """Why the server would refuse ``name`` (None: it may be used), in the protocol's words.

    >>> name_problem("Ann"), name_problem("")
    (None, 'a name has 1 to 32 characters')
    """
    if not 1 <= len(name) <= 32:
        return "a name has 1 to 32 characters"
    try:
        printable_name(name)
    except ValueError as exc:
        return str(exc)
    return None


def default_name() -> str:
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = "player"
    return name if name_problem(name) is None else "player"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tyros-client",
        description="Play Tyros in the terminal against a tyros-server.",
        epilog="Your seat's token is kept in ~/.local/share/tyros/tokens.json (by server, "
        "table and name): run the same command again to take your seat back.",
    )
    parser.add_argument(
        "address",
        type=parse_address,
        nargs="?",
        help="HOST:PORT (ws://) or wss://HOST:PORT of a tyros-server (not for --replay FILE)",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE|TABLE",
        default=None,
        help="watch a recorded game move by move: a record FILE (tyros-arena --record, "
        "tyros-server export), or with HOST:PORT a TABLE of that server (in full once it is "
        "over; as a spectator sees it before)",
    )
    parser.add_argument(
        "--review",
        metavar="FILE",
        default=None,
        help="with --replay: a review (tyros-review --json) whose marks show beside its "
        "seat's decisions",
    )
    parser.add_argument(
        "--as",
        dest="viewer",
        default="A",
        metavar="SEAT",
        help="with --replay: the seat to see the game as first (A-D, or 'spectator'; F6 "
        "changes it)",
    )
    parser.add_argument("--name", default=None, help="your name at the table (default: login)")
    add_table_options(parser)
    parser.add_argument("--spectate", action="store_true", help="watch the table")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="game seed, if the table is created (only a server started with --allow-seed "
        "takes one)",
    )
    parser.add_argument(
        "--clock",
        type=clock_setting,
        metavar="DECISION+RESERVE",
        default=None,
        help="a clock for the table, if it is created: DECISION free seconds a decision plus "
        "a RESERVE each player spends when thinking longer (e.g. 30+300); when both run out a "
        "bot decides that once. Default: the server's (none unless it sets one)",
    )
    parser.add_argument(
        "--no-hints",
        dest="hints",
        action="store_false",
        help="if the table is created: nobody there may ask for hints (shown to everyone)",
    )
    parser.add_argument(
        "--bots",
        type=int,
        choices=(1, 2, 3),
        default=None,
        help="if the table is created: the server's own bots take this many of the other "
        "seats at once (they trade and play at a person's pace)",
    )
    parser.add_argument(
        "--trade-seconds",
        type=int,
        default=None,
        help="seconds to answer a trade offer, 5 to 600, if the table is created (default: "
        "the server's, 60)",
    )
    add_trust_options(parser)
    args = parser.parse_args(argv)
    if args.address is None and args.replay is None:
        parser.error("give the server's HOST:PORT (or --replay FILE to watch a record)")
    if args.review is not None and args.replay is None:
        parser.error("--review goes with --replay")
    problem = None if args.name is None else name_problem(args.name)
    if problem is not None:
        parser.error(problem)
    if not re.match(r"^[A-Za-z0-9_.-]{1,32}$", args.table):
        parser.error("a table name has 1 to 32 letters, digits, '_', '.' or '-'")
    args.trust = trust_from_options(parser, args)  # last: --forget-pin forgets at once
    return args


async def run_client(ui: TyrosApp, net: NetClient) -> None:
    """Run the screen and the network task together until the player quits."""
    ui.sender, ui.talker, ui.hinter = net.send_action, net.send_chat, net.send_hint
    ui.fetcher = net.fetch_record
    task = asyncio.create_task(net.run())
    try:
        await ui.application.run_async()
    finally:
        net.stop()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def build(
    url: str,
    table: str,
    name: str,
    *,
    spectate: bool = False,
    options: JoinOptions | None = None,
    tokens: TokenStore | None = None,
    colour: bool | None = None,
    trust: ServerTrust | None = None,
    settings: SettingsFile | None = None,
) -> tuple[TyrosApp, NetClient]:
    """A client's state, screen and network task, wired together (not yet running);
    ``settings``: where the player's settings are kept (None: the defaults of a bare
    client, kept for this game only)."""
    state = ClientState(url, table, name, spectate=spectate)
    ui = TyrosApp(state, colour=colour)
    if settings is not None:
        settings.load(ui.state.orders)
        ui.autopilot.settings = settings
    net = NetClient(
        state, url, options=options, tokens=tokens, on_change=ui.on_state_change, trust=trust
    )
    ui.sender, ui.talker, ui.hinter = net.send_action, net.send_chat, net.send_hint
    ui.fetcher = net.fetch_record
    return ui, net


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.replay is not None:
        return replay_main(args)
    options = JoinOptions(
        players=args.players,
        setup=args.setup,
        seed=args.seed,
        trade_seconds=args.trade_seconds,
        clock=args.clock,
        hints=None if args.hints else False,
        bots=args.bots,
    )
    ui, net = build(
        args.address,
        args.table,
        args.name or default_name(),
        spectate=args.spectate,
        options=options,
        tokens=TokenStore(),
        trust=args.trust,
        settings=SettingsFile(data_dir() / SETTINGS_FILE),
    )
    try:
        asyncio.run(run_client(ui, net))
    except KeyboardInterrupt:
        return 130
    except EOFError:  # prompt-toolkit's word for an input that is not a terminal
        print(NEEDS_A_TERMINAL, file=sys.stderr)
        return 2
    if net.state.fatal:
        print(f"tyros-client: {net.state.fatal}", file=sys.stderr)
        return 1
    if net.state.seat is not None and not net.state.over:
        print(
            f"tyros-client: your seat at table {net.state.table} waits for you: run the same "
            "command to take it back"
        )
    return 0


def build_replay(
    replay: Replay,
    *,
    viewer: int | None = 0,
    review: dict[str, Any] | None = None,
    colour: bool | None = None,
    title: str = "replay",
) -> TyrosApp:
    """A screen showing a recorded game (nothing connected)."""
    state = ClientState("replay", title, "you", spectate=viewer is None)
    ui = TyrosApp(state, colour=colour)
    ui.driver = ReplayDriver(replay, state, viewer, review)
    ui.screen.score_dismissed = True  # the sheet opens only on 'score' or at the end
    return ui


def replay_main(args: argparse.Namespace) -> int:
    """``tyros-client --replay FILE`` (or ``HOST:PORT --replay TABLE``)."""
    try:
        if args.address is None:
            record = read_record(args.replay)
        else:
            record = asyncio.run(fetch_record(args.address, args.replay, args.trust))
        replay = Replay(record)
        viewer = parse_viewer(args.viewer, replay.players)
    except (OSError, ValueError, RecordError) as exc:
        print(f"tyros-client: cannot replay {args.replay}: {exc}", file=sys.stderr)
        return 1
    review = None
    if args.review is not None:
        try:
            review = check_review(read_record(args.review, "review"), record)
        except (OSError, ValueError) as exc:
            print(f"tyros-client: cannot use the review {args.review}: {exc}", file=sys.stderr)
            return 1
    return run_screen(build_replay(replay, viewer=viewer, review=review, title=str(args.replay)))


def run_screen(ui: TyrosApp, *, review: bool = False) -> int:
    """Run a screen with nothing connected (a replay) until it is quit; its exit status.
    ``review``: start reviewing the seat it shows at once."""

    def start_review() -> None:
        ui.review_here()  # (it says itself on the message line how far it is)

    try:
        ui.application.run(pre_run=start_review if review else None)
    except KeyboardInterrupt:
        return 130
    except EOFError:
        print(NEEDS_A_TERMINAL, file=sys.stderr)
        return 2
    return 0


__all__ = ["TyrosApp", "build", "build_replay", "main", "run_client", "run_screen"]


if __name__ == "__main__":
    raise SystemExit(main())
