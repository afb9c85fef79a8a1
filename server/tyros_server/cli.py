"""``tyros-server``: host Tyros tables on the LAN; ``tyros-server export``: write a record."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import random
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, Protocol

from tyros_protocol.board import BOARD

from .app import ServerConfig, run_server
from .engine import (
    Action,
    EngineError,
    Options,
    export_record,
    new_game,
    parse_action,
    push,
)
from .session import Limits, TakeoverPolicy
from .storage import Store, fairness, seed_commitment
from .tls import tls_problem

STRATEGY_GROUP = "tyros.strategies"
"""Entry-point group where installed packages may name takeover strategies."""


class SeatPlayer(Protocol):
    """What plays an absent seat: it sees that seat's view and legal actions, nothing else
    (a :class:`tyros_client.bots.Bot` is one)."""

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


PlayerFactory = Callable[[int, random.Random], SeatPlayer]
"""(seat, rng) -> the player of that seat (a bot class is one)."""


class RandomPlayer:
    """The built-in takeover strategy: uniform among the legal actions."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return self.rng.choice(legal)


def load_strategy(name: str) -> PlayerFactory:
    """The player factory called ``name``: ``random`` (built in), an entry point of the
    :data:`STRATEGY_GROUP` group, or ``MODULE:NAME``, an importable factory such as
    ``tyros_client.bots.greedy:GreedyBot``. The server knows no bot itself: the bots live
    with the client, and the client depends on the server, not the other way round.

    >>> load_strategy("random") is RandomPlayer
    True
    >>> load_strategy("nobody")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown takeover strategy 'nobody': give random, an entry point of ...
    """
    if name == "random":
        return RandomPlayer
    for entry in entry_points(group=STRATEGY_GROUP):
        if entry.name == name:
            loaded: PlayerFactory = entry.load()
            return loaded
    module_name, colon, attribute = name.partition(":")
    if not colon or not module_name or not attribute:
        raise ValueError(
            f"unknown takeover strategy {name!r}: give random, an entry point of "
            f"{STRATEGY_GROUP}, or MODULE:NAME (e.g. "
            "tyros_client.bots.greedy:GreedyBot)"
        )
    try:
        found: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load takeover strategy {name!r}: {exc}") from exc
    if not callable(found):
        raise ValueError(f"takeover strategy {name!r} is not callable")
    factory: PlayerFactory = found
    return factory


def bot_takeover(strategy: str | PlayerFactory) -> TakeoverPolicy:
    """A takeover policy that plays each absent seat with one player of ``strategy`` (a name
    for :func:`load_strategy`, or a factory), made when the seat is first taken over."""
    factory = load_strategy(strategy) if isinstance(strategy, str) else strategy
    players: dict[tuple[str, int], SeatPlayer] = {}

    def choose(table: str, seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
        player = players.get((table, seat))
        if player is None:
            player = players[(table, seat)] = factory(seat, random.Random())
        return player.choose(view, legal)

    return choose


def configure_logging(level: str) -> None:
    """Log at ``level``, except the websockets library, which logs whole frames (tokens
    included) at DEBUG: it never goes below INFO."""
    logging.basicConfig(
        level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    library = logging.getLogger("websockets")
    library.setLevel(max(logging.INFO, logging.getLogger().getEffectiveLevel()))


def refuse_tls_files(
    parser: argparse.ArgumentParser, certfile: str | None, keyfile: str | None
) -> int | None:
    """The exit status if ``--certfile``/``--keyfile`` cannot serve ``wss://`` (None: they
    can, or neither was given), once the reason is printed: checked before the server
    starts, so that a bad file is one line, not a traceback from inside the event loop."""
    if (certfile is None) != (keyfile is None):
        parser.error("--certfile and --keyfile go together: give both (wss://) or neither (ws://)")
    if certfile is None:
        return None
    problem = tls_problem(certfile, keyfile)
    if problem is None:
        return None
    print(f"tyros-server: {problem}", file=sys.stderr)
    return 2


def serve_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tyros-server", description="Host Tyros tables over websockets."
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (0.0.0.0 for the whole LAN)"
    )
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--certfile", metavar="FILE", help="PEM certificate: serve wss:// (with --keyfile)"
    )
    parser.add_argument("--keyfile", metavar="FILE", help="the certificate's PEM private key")
    parser.add_argument("--db", default="tyros.db", help="SQLite file (created if missing)")
    parser.add_argument(
        "--takeover",
        type=float,
        metavar="SECONDS",
        default=None,
        help="let a bot play a disconnected seat after this many seconds",
    )
    parser.add_argument(
        "--takeover-strategy",
        default="random",
        metavar="STRATEGY",
        help="who plays a taken-over seat: random (built in), an entry point "
        f"of {STRATEGY_GROUP}, or MODULE:NAME, a factory (seat, rng) of "
        "players with choose(view, legal), e.g. "
        "tyros_client.bots.greedy:GreedyBot",
    )
    parser.add_argument("--max-connections", type=int, default=1024)
    parser.add_argument("--max-per-address", type=int, default=256)
    parser.add_argument(
        "--allow-seed",
        action="store_true",
        help="let a hello choose the game's seed (tests and benchmarks only: whoever knows "
        "the seed knows every hand)",
    )
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    takeover = None
    if args.takeover is not None:
        try:
            takeover = bot_takeover(args.takeover_strategy)
        except ValueError as exc:
            parser.error(str(exc))
    tls_refused = refuse_tls_files(parser, args.certfile, args.keyfile)
    if tls_refused is not None:
        return tls_refused
    configure_logging(args.log_level)
    config = ServerConfig(
        host=args.host,
        port=args.port,
        certfile=args.certfile,
        keyfile=args.keyfile,
        db=args.db,
        max_connections=args.max_connections,
        allow_seed=args.allow_seed,
        max_per_address=args.max_per_address,
        limits=Limits(takeover_seconds=args.takeover),
    )
    asyncio.run(run_server(config, takeover))
    return 0


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tyros-server export", description="Write a stored game as a JSON record."
    )
    parser.add_argument("--db", default="tyros.db")
    parser.add_argument("--out", default="-", help="file to write (default: stdout)")
    parser.add_argument("table", nargs="?", help="table name (omit to list the stored tables)")
    args = parser.parse_args(argv)
    store = Store(args.db)
    try:
        if args.table is None:
            for name in store.table_names():
                print(name)
            return 0
        stored = store.load_table(args.table)
        if stored is None:
            print(f"no table named {args.table!r} in {args.db}", file=sys.stderr)
            return 1
        if len(stored.seats) < stored.options["players"]:
            print(f"table {args.table!r} never started", file=sys.stderr)
            return 1
        state = new_game(Options(**stored.options))
        for seat, action in stored.actions:
            push(state, seat, parse_action(action, BOARD))
        record = export_record(state, [seat.name for seat in stored.seats])
        if stored.salt:
            record["fairness"] = fairness(state.options.seed, stored.salt, stored.finished)
    finally:
        store.close()
    text = json.dumps(record, indent=1)
    if args.out == "-":
        print(text)
    else:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


def verify_record(record: dict[str, Any]) -> list[str]:
    """What is wrong with a finished game's record as proof of a fair deal (empty: nothing).

    The seed and salt revealed at the end must give the commitment every player was shown
    at the start, and the game replayed from that seed with the record's decisions must
    deal, shuffle and draw exactly what the record says.
    """
    fairness = record.get("fairness") or {}
    seed, salt, commitment = fairness.get("seed"), fairness.get("salt"), fairness.get("commitment")
    if not isinstance(seed, int) or not isinstance(salt, str) or not isinstance(commitment, str):
        return ["the record holds no seed, salt and commitment (an unfinished or old game?)"]
    problems = []
    if seed_commitment(seed, salt) != commitment:
        problems.append("the seed and salt do not give the commitment shown at the start")
    options = dict(record.get("options") or {})
    if options.get("seed") != seed:
        problems.append("the record's options name another seed than the one revealed")
    try:
        state = new_game(Options(**{**options, "seed": seed}))
        events = record.get("events") or []
        for event in events:
            if event.get("type") == "action" and isinstance(event.get("seat"), int):
                push(state, event["seat"], parse_action(event["action"], BOARD))
    except (EngineError, TypeError, KeyError, ValueError) as exc:
        return [*problems, f"the record's decisions do not replay: {exc}"]
    if list(state.log or []) != list(events):
        at = next(
            (i for i, (a, b) in enumerate(zip(state.log or [], events, strict=False)) if a != b),
            min(len(state.log or []), len(events)),
        )
        problems.append(
            f"event {at} is not what the seed deals: the shuffles do not follow from the seed"
        )
    return problems


def verify_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tyros-server verify",
        description="Check that a finished game's record was dealt fairly: its revealed seed "
        "and salt give the commitment shown at the start, and every shuffle follows from it.",
    )
    parser.add_argument("record", help="a record written by tyros-server export")
    args = parser.parse_args(argv)
    try:
        with open(args.record, encoding="utf-8") as handle:
            record = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"tyros-server verify: cannot read {args.record}: {exc}", file=sys.stderr)
        return 2
    problems = verify_record(record)
    for problem in problems:
        print(f"NOT VERIFIED: {problem}")
    if not problems:
        print("verified: the commitment matches the seed, and every deal follows from it")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["export"]:
        return export_main(args[1:])
    if args[:1] == ["verify"]:
        return verify_main(args[1:])
    return serve_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
