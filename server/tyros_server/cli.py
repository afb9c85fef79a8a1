"""``tyros-server``: host Tyros tables on the LAN; ``tyros-server export``: write a record."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
from typing import Any

from tyros_protocol.board import BOARD

from .app import ServerConfig, run_server
from .engine import Action, Options, export_record, new_game, parse_action, push
from .session import Limits, TakeoverPolicy
from .storage import Store


def bot_takeover(strategy: str) -> TakeoverPolicy:
    """A takeover policy that plays each absent seat with one bot of ``strategy``."""
    from tyros_client.bots import make_bot  # the bots live with the client

    bots: dict[tuple[str, int], Any] = {}

    def choose(table: str, seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
        bot = bots.get((table, seat))
        if bot is None:
            bot = bots[(table, seat)] = make_bot(strategy, seat, random.Random())
        action: Action = bot.choose(view, legal)
        return action

    return choose


def configure_logging(level: str) -> None:
    """Log at ``level``, except the websockets library, which logs whole frames (tokens
    included) at DEBUG: it never goes below INFO."""
    logging.basicConfig(level=level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    library = logging.getLogger("websockets")
    library.setLevel(max(logging.INFO, logging.getLogger().getEffectiveLevel()))


def serve_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tyros-server",
                                     description="Host Tyros tables over websockets.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0 for the whole LAN)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--db", default="tyros.db", help="SQLite file (created if missing)")
    parser.add_argument("--takeover", type=float, metavar="SECONDS", default=None,
                        help="let a bot play a disconnected seat after this many seconds")
    parser.add_argument("--takeover-strategy", default="random")
    parser.add_argument("--max-connections", type=int, default=1024)
    parser.add_argument("--max-per-address", type=int, default=256)
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    configure_logging(args.log_level)
    config = ServerConfig(
        host=args.host, port=args.port, db=args.db, max_connections=args.max_connections,
        max_per_address=args.max_per_address, limits=Limits(takeover_seconds=args.takeover),
    )
    takeover = bot_takeover(args.takeover_strategy) if args.takeover is not None else None
    asyncio.run(run_server(config, takeover))
    return 0


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tyros-server export",
                                     description="Write a stored game as a JSON record.")
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
    finally:
        store.close()
    text = json.dumps(record, indent=1)
    if args.out == "-":
        print(text)
    else:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["export"]:
        return export_main(args[1:])
    return serve_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
