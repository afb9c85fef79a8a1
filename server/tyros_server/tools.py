"""``tyros-server export`` / ``verify`` / ``restore``: what a host does with stored games.

- ``export``: a stored game as a JSON record (or the list of stored tables);
- ``verify``: check a finished game's record as proof of a fair deal;
- ``restore``: put the newest sound backup in place of a damaged database.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from tyros_protocol.board import BOARD
from tyros_rules import EngineError, Options, new_game, parse_action, push

from .backups import DatabaseLock, restore
from .fairness import seed_commitment
from .records import RecordUnavailable, stored_record
from .storage import Store, StoreOpenError


def export_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tyros-server export", description="Write a stored game as a JSON record."
    )
    parser.add_argument("--db", default="tyros.db")
    parser.add_argument("--out", default="-", help="file to write (default: stdout)")
    parser.add_argument(
        "table",
        nargs="?",
        help="table name (omit to list the stored tables, finished or not, with their dates)",
    )
    args = parser.parse_args(argv)
    try:
        store = Store(args.db, create=False)
    except StoreOpenError as exc:
        print(f"tyros-server export: {exc}", file=sys.stderr)
        return 2
    try:
        if args.table is None:
            for name, created, finished, actions in store.table_list():
                when = time.strftime("%Y-%m-%d %H:%M", time.localtime(created))
                state = "finished" if finished else "not finished"
                print(f"{name}  created {when}  {state}, {actions} actions played")
            return 0
        try:
            record = stored_record(store, args.table)
        except RecordUnavailable as exc:
            print(str(exc), file=sys.stderr)
            return 1
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


def restore_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="tyros-server restore",
        description="Put the newest sound backup (DB.backup-1, -2, ...) in place of a damaged "
        "database, and then every table the damaged file still holds readable and newer; "
        "the tables it cannot give back are named. The damaged file is kept beside it, "
        "renamed, never deleted. Stop the server first (a server meeting a damaged database "
        "at start does this itself).",
    )
    parser.add_argument("--db", default="tyros.db", help="the database to restore")
    parser.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="FILE",
        help="restore this backup (default: the newest sound one of the rolling backups)",
    )
    parser.add_argument(
        "--backup-only",
        action="store_true",
        help="take the backup as it is, nothing from the file it replaces",
    )
    args = parser.parse_args(argv)
    try:
        with DatabaseLock(args.db, "tyros-server restore"):
            restored = restore(args.db, args.source, backup_only=args.backup_only)
    except StoreOpenError as exc:
        print(f"tyros-server restore: {exc}", file=sys.stderr)
        return 2
    for line in restored.lines():
        print(line)
    return 0
