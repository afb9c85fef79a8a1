"""``tyros-server``: host Tyros tables on the LAN; ``tyros-server export``: write a record."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys

from tyros_protocol.messages import BOT_LEVELS, DEFAULT_BOT_LEVEL
from tyros_protocol.options import clock_setting
from tyros_protocol.words import LEVEL_WORDS

from .app import ServerConfig, run_server
from .session import Limits
from .storage import StoreOpenError
from .strategies import STRATEGY_GROUP
from .strategies import bot_takeover as bot_takeover
from .strategies import load_strategy as load_strategy
from .tls import tls_problem
from .tools import export_main, restore_main, verify_main

DEFAULT_TAKEOVER_SECONDS = 90.0
"""How long a seat's owner may be away before a bot plays for them."""


def takeover_seconds(text: str) -> float | None:
    """``--takeover``'s value: seconds, or ``off`` (or 0) for no takeover.

    >>> takeover_seconds("90"), takeover_seconds("off"), takeover_seconds("0")
    (90.0, None, None)
    """
    if text.strip().lower() in ("off", "no", "none", "0"):
        return None
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seconds or off, not {text!r}") from None
    if not seconds > 0:
        raise argparse.ArgumentTypeError("seconds above 0, or off")
    return seconds


DECISION_PROCESSES = max(1, (os.cpu_count() or 2) - 1)
"""Worker processes for the server's decisions by default: a core for each but the event
loop's (docs/benchmarks.md, "Decisions in processes": on 2 cores one process beat a thread,
and two, which starved the loop)."""


def configure_logging(level: str, file: str | None = None) -> None:
    """Log at ``level`` to stderr, or to ``file`` (created readable by its owner only: it
    names players and tables), except the websockets library, which logs whole frames
    (tokens included) at DEBUG: it never goes below INFO."""
    handlers: list[logging.Handler] | None = None
    if file is not None:
        os.close(os.open(file, os.O_CREAT | os.O_WRONLY | os.O_APPEND, 0o600))
        handlers = [logging.FileHandler(file, encoding="utf-8")]
    logging.basicConfig(
        level=level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        handlers=handlers,
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
        prog="tyros-server",
        description="Host Tyros tables over websockets.",
        epilog="Also: 'tyros-server export' writes a stored game as a record (or lists the "
        "stored tables), 'tyros-server verify' checks a finished game's deal, "
        "'tyros-server restore' puts the newest sound backup in place of a damaged "
        "database; each has its own --help.",
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default %(default)s, this machine only; 0.0.0.0 for the "
        "whole LAN)",
    )
    parser.add_argument(
        "--host-name",
        action="append",
        default=[],
        metavar="NAME",
        help="a name (or address) people reach this server by, besides this machine's names "
        "and addresses and localhost: a page or websocket asked for by any other name is "
        "refused (it may be another site's); repeat for more names",
    )
    parser.add_argument(
        "--port", type=int, default=8765, help="port to listen on (default %(default)s)"
    )
    parser.add_argument(
        "--certfile", metavar="FILE", help="PEM certificate: serve wss:// (with --keyfile)"
    )
    parser.add_argument("--keyfile", metavar="FILE", help="the certificate's PEM private key")
    parser.add_argument(
        "--db",
        default="tyros.db",
        help="SQLite file of every table, created if missing (default %(default)s, in the "
        "current folder)",
    )
    parser.add_argument(
        "--takeover",
        type=takeover_seconds,
        metavar="SECONDS",
        default=DEFAULT_TAKEOVER_SECONDS,
        help="a bot plays a disconnected seat (when it must act) once its owner has been "
        f"away this long, until the owner is back (default {DEFAULT_TAKEOVER_SECONDS:g}; "
        "off: the table waits for them)",
    )
    parser.add_argument(
        "--bot-pace",
        type=float,
        metavar="SECONDS",
        default=Limits().bot_pace_seconds,
        help="seconds between two of a table's takeover decisions at least, so that a table "
        "of absent players goes on at a person's pace (default %(default)g)",
    )
    parser.add_argument(
        "--takeover-strategy",
        default="greedy",
        metavar="STRATEGY",
        help="who plays a taken-over seat, decides for a seat out of time, and gives hints "
        "to the page: greedy (the default) or ismcts (the client's bots, "
        f"entry points of {STRATEGY_GROUP}), "
        "random (built in), another entry point, or MODULE:NAME, a factory (seat, rng) of "
        "players with choose(view, legal)",
    )
    parser.add_argument(
        "--bot-level",
        choices=BOT_LEVELS,
        default=DEFAULT_BOT_LEVEL,
        help="how strong the server's own bots are at a table created without a level "
        "(a hello's bot_level, the page's choice; the page offers it first): "
        + ", ".join(f"{level} ({words})" for level, words in LEVEL_WORDS.items())
        + f"; default {DEFAULT_BOT_LEVEL}",
    )
    parser.add_argument(
        "--decision-processes",
        type=int,
        metavar="N",
        default=DECISION_PROCESSES,
        help="make the server's decisions for seats (its bots, takeovers, hints) in N "
        "worker processes, each with its own policy of the strategy, so that searches use "
        "the cores the game's loop leaves and never slow it; 0: in one thread (default "
        "%(default)s: a core each but the loop's)",
    )
    parser.add_argument(
        "--clock",
        type=clock_setting,
        metavar="DECISION+RESERVE",
        default=None,
        help="a clock for the tables created without one: DECISION free seconds for each "
        "decision plus a RESERVE each seat spends when it thinks longer (e.g. 30+300; when "
        "both run out a bot decides for it, that once). Default: no clock",
    )
    parser.add_argument(
        "--allow-seed",
        action="store_true",
        help="let a hello choose the game's seed (tests and benchmarks only: whoever knows "
        "the seed knows every hand)",
    )
    parser.add_argument(
        "--log-level",
        default="INFO",
        choices=("DEBUG", "INFO", "WARNING", "ERROR"),
        type=str.upper,
        help="how much the log says (default %(default)s)",
    )
    parser.add_argument("--log-file", metavar="FILE", help="log here (owner-only) not to stderr")
    _add_limit_options(parser)
    args = parser.parse_args(argv)
    # The bot that plays an absent seat also decides for a seat whose time ran out (a
    # table's clock may come from a hello even when the server sets none).
    try:
        takeover = bot_takeover(args.takeover_strategy)
        bot_takeover(args.bot_level)  # (its bots are made when a table needs them)
    except ValueError as exc:
        parser.error(str(exc))
    tls_refused = refuse_tls_files(parser, args.certfile, args.keyfile)
    if tls_refused is not None:
        return tls_refused
    try:
        configure_logging(args.log_level, args.log_file)
    except OSError as exc:
        print(f"tyros-server: cannot write the log {args.log_file}: {exc}", file=sys.stderr)
        return 2
    defaults = Limits()
    limits = Limits(
        takeover_seconds=args.takeover,
        bot_pace_seconds=max(0.0, args.bot_pace),
        proposer_grace_seconds=max(0.0, args.proposer_grace),
        finished_in_memory=max(0, args.finished_in_memory),
        default_clock=args.clock,
        default_bot_level=args.bot_level,
        max_open_tables=args.max_tables,
        tables_per_minute=args.tables_per_minute,
        waiting_tables_per_address=args.waiting_tables,
        tables_per_address=args.tables_per_address,
        house_tables_per_address=args.bot_tables_per_address,
        max_house_tables=args.bot_tables,
        unattended_table_seconds=args.unattended_table or None,
        record_rate=args.record_rate,
        advice_rate=args.advice_rate,
        address_per_second=args.address_rate or None,
        address_burst=max(defaults.address_burst, int(args.address_rate * 4)),
        spectators_per_table=args.spectators_per_table,
        spectators_per_address=args.spectators_per_address,
        spectator_idle_seconds=args.spectator_idle or None,
        unstarted_table_seconds=args.unstarted_table or None,
    )
    config = ServerConfig(
        host=args.host,
        host_names=tuple(args.host_name),
        port=args.port,
        certfile=args.certfile,
        keyfile=args.keyfile,
        db=args.db,
        max_connections=args.max_connections,
        allow_seed=args.allow_seed,
        max_per_address=args.max_per_address,
        address_reserve=args.address_reserve,
        max_queued_bytes=args.max_queued_kib * 1024,
        connections_per_second=args.connection_rate or None,
        backup_minutes=args.backup_minutes or None,
        backups=args.backups,
        limits=limits,
        decision_processes=max(0, args.decision_processes),
        takeover_strategy=args.takeover_strategy,
    )
    try:
        asyncio.run(run_server(config, takeover, levels=bot_takeover))
    except StoreOpenError as exc:
        print(f"tyros-server: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the port is taken, the address is not this machine's, ...
        print(f"tyros-server: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    return 0


def _add_limit_options(parser: argparse.ArgumentParser) -> None:
    """The server's bounds, each with a safe default (:class:`Limits`, :class:`ServerConfig`)."""
    config, limits = ServerConfig(), Limits()
    group = parser.add_argument_group("limits (0 turns off where it says so)")
    option = group.add_argument
    option(
        "--max-connections",
        type=int,
        default=config.max_connections,
        help="connections at once (default %(default)s, fewer if the open-files limit needs it)",
    )
    option(
        "--max-per-address",
        type=int,
        default=config.max_per_address,
        help="connections at once from one address (default %(default)s)",
    )
    option(
        "--address-reserve",
        type=int,
        default=config.address_reserve,
        metavar="CONNECTIONS",
        help="the last places of --max-connections, kept for addresses that hold no "
        "connection, so that a few machines cannot take every place (default %(default)s, "
        "a quarter of the cap at most)",
    )
    option(
        "--connection-rate",
        type=float,
        default=config.connections_per_second,
        metavar="PER_SECOND",
        help="new connections per second from one address, after a burst of "
        "--max-per-address (default %(default)s; 0: no limit)",
    )
    option(
        "--finished-in-memory",
        type=int,
        default=limits.finished_in_memory,
        metavar="TABLES",
        help="finished tables nobody is at kept in memory (the oldest leave it first, after "
        "10 minutes at most; they stay in the database) (default %(default)s)",
    )
    option(
        "--proposer-grace",
        type=float,
        default=limits.proposer_grace_seconds,
        metavar="SECONDS",
        help="at a table without a clock, an open trade offer is withdrawn this long after "
        "its answers' time is up, unless its proposer completed or withdrew it "
        "(default %(default)g)",
    )
    option(
        "--max-tables",
        type=int,
        default=limits.max_open_tables,
        help="unfinished tables at once (default %(default)s)",
    )
    option(
        "--tables-per-minute",
        type=int,
        default=limits.tables_per_minute,
        help="tables one address may create in a minute (default %(default)s)",
    )
    option(
        "--address-rate",
        type=float,
        default=limits.address_per_second,
        metavar="PER_SECOND",
        help="messages per second from one address, all its connections together "
        "(default %(default)s; 0: no limit)",
    )
    option(
        "--waiting-tables",
        type=int,
        default=limits.waiting_tables_per_address,
        help="tables from one address waiting for players at once (default %(default)s)",
    )
    option(
        "--tables-per-address",
        type=int,
        default=limits.tables_per_address,
        help="unfinished tables created from one address, started or not (default %(default)s)",
    )
    option(
        "--bot-tables-per-address",
        type=int,
        default=limits.house_tables_per_address,
        help="unfinished tables created from one address with the server's bots (default "
        "%(default)s)",
    )
    option(
        "--bot-tables",
        type=int,
        default=limits.max_house_tables,
        help="unfinished tables with the server's bots, from every address (default %(default)s)",
    )
    option(
        "--unattended-table",
        type=float,
        default=limits.unattended_table_seconds,
        metavar="SECONDS",
        help="pause a table of the server's bots without a clock once its people did "
        "nothing for this long (it leaves memory until one of them resumes their seat) "
        "(default %(default)s; 0: never)",
    )
    option(
        "--record-rate",
        type=float,
        default=limits.record_rate,
        metavar="PER_SECOND",
        help="records (get_record) one address may ask for a second, after a burst of "
        f"{limits.record_burst}; one a second per connection (default %(default)s)",
    )
    option(
        "--advice-rate",
        type=float,
        default=limits.advice_rate,
        metavar="PER_SECOND",
        help="advice one address may ask for a second, after a burst of "
        f"{limits.advice_burst}, one under way at a time (default %(default)s)",
    )
    option(
        "--spectators-per-table",
        type=int,
        default=limits.spectators_per_table,
        help="spectators of one table at once (default %(default)s)",
    )
    option(
        "--spectators-per-address",
        type=int,
        default=limits.spectators_per_address,
        help="spectator connections from one address (default %(default)s)",
    )
    option(
        "--spectator-idle",
        type=float,
        default=limits.spectator_idle_seconds,
        metavar="SECONDS",
        help="close a spectator when nothing happened for this long (default %(default)s; 0: "
        "never)",
    )
    option(
        "--unstarted-table",
        type=float,
        default=limits.unstarted_table_seconds,
        metavar="SECONDS",
        help="remove a table that never started once nobody was at it for this long "
        "(default %(default)s; 0: never)",
    )
    option(
        "--max-queued-kib",
        type=int,
        default=config.max_queued_bytes // 1024,
        metavar="KIB",
        help="data waiting for one slow reader before it is dropped (default %(default)s)",
    )
    option(
        "--backup-minutes",
        type=float,
        default=config.backup_minutes,
        metavar="MINUTES",
        help="copy the database to DB.backup-1 at start and this often (default %(default)s; "
        "0: never)",
    )
    option(
        "--backups",
        type=int,
        default=config.backups,
        help="rolling backups kept, DB.backup-1 the newest (default %(default)s)",
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    commands = {"export": export_main, "verify": verify_main, "restore": restore_main}
    if args[:1] and args[0] in commands:
        return commands[args[0]](args[1:])
    return serve_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
