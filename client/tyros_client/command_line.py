"""What the terminal client's and the bots' command lines share: the server's address and
the table to join."""

from __future__ import annotations

import argparse

from tyros_rules import PLAYER_COUNTS
from websockets.exceptions import InvalidURI
from websockets.uri import parse_uri


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """``--table``, ``--players``, ``--setup``: which table, and how to create it if it does
    not exist yet (the terminal client's and the bots' command lines)."""
    parser.add_argument(
        "--table", default="table", help="table to join or create (default %(default)s)"
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=PLAYER_COUNTS,
        default=max(PLAYER_COUNTS),
        help="players, if the table is created (default %(default)s)",
    )
    parser.add_argument(
        "--setup",
        choices=("first", "variable"),
        default="first",
        help="empire setup, if the table is created (default %(default)s)",
    )


def parse_address(text: str) -> str:
    """``HOST:PORT`` (plain ``ws://``, the default on a LAN), ``ws://HOST:PORT`` or
    ``wss://HOST:PORT`` (TLS) as a websocket URL.

    >>> parse_address("localhost:8765"), parse_address("ws://10.0.0.2:9000")
    ('ws://localhost:8765', 'ws://10.0.0.2:9000')
    >>> parse_address("wss://tyros.example:8765")
    'wss://tyros.example:8765'
    """
    if text.startswith(("ws://", "wss://")):
        try:
            parse_uri(text)
        except (InvalidURI, ValueError) as exc:  # a bad port is a ValueError
            raise argparse.ArgumentTypeError(f"expected HOST:PORT or a URL: {exc}") from exc
        return text
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return f"ws://{host or 'localhost'}:{port}"
