"""Words for people: cards, players, actions, events (the protocol's catalogue, see
:mod:`tyros_protocol.words`), refusals, and the command line that makes an action.

Pure functions over the protocol's JSON (no rules, no terminal: the terminal client, the
reviews, the hints and the bots' logs all speak with them). Players are
shown by a letter (A for seat 0, B for seat 1, ...) and their name.

>>> cards_text(["green", "wild", "green"])
'green x2, wild'
>>> describe_action({"kind": "move", "from": "TY", "to": "31", "pay": ["violet"]})
'move TY -> 31 paying violet'
>>> who(1, ["Ann", "Bob"])
'B Bob'
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from tyros_protocol.catalogue import ACTIONS
from tyros_protocol.words import (
    CARDS,
    LETTERS,
    Context,
    Format,
    Names,
    answer_words,
    card_counts,
    cards_text,
    completing_words,
    describe_action,
    describe_event,
    describe_target,
    letter,
    name_of,
    render,
    who,
)

COLOURS: tuple[str, ...] = CARDS[:4]
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def either(words: Sequence[str]) -> str:
    """``words`` as a choice of one.

    >>> either(["accept", "decline", "counter"]), either(["pass"])
    ('accept, decline or counter', 'pass')
    """
    return " or ".join(filter(None, (", ".join(words[:-1]), *words[-1:])))


def sort_cards(cards: Iterable[str]) -> list[str]:
    order = {kind: i for i, kind in enumerate(CARDS)}
    return sorted(cards, key=lambda card: order.get(card, len(CARDS)))


def cards_short(cards: Iterable[str]) -> str:
    """``['green', 'green', 'wild']`` as ``'g,g,w'``: what a command accepts back."""
    return ",".join(card[0] for card in sort_cards(cards)) or "-"


ERROR_WORDS: dict[str, str] = {
    "bad_json": "the server could not read what this client sent",
    "bad_message": "the server could not read that command",
    "binary_frame": "the server could not read what this client sent",
    "unsupported_protocol": "this client is too old or too new for the server: update it",
    "rate_limited": "you are sending too fast: wait a moment",
    "hello_first": "the client has not joined a table yet",
    "already_joined": "this connection has joined a table already",
    "no_such_table": "there is no table of that name to watch",
    "table_full": "the table is full (watch it with --spectate, or choose another table)",
    "table_finished": "the game at that table is over: choose another table name, or watch "
    "its replay (--replay TABLE)",
    "not_finished": "that game is not over: its record would show every hand (watch it with "
    "--spectate)",
    "hints_off": "hints are off at this table (it was created without them)",
    "bad_token": "the server no longer knows this seat",
    "spectator": "you are watching this table: spectators cannot act",
    "not_started": "the game starts when every seat is taken",
    "stale_version": "the game moved on before your action arrived: look again",
    "too_late": "too late: the trade ended before your answer arrived",
    "too_many_connections": "the server has too many connections now: trying again",
    "seed_not_allowed": "this server deals its own games: leave out --seed",
    "name_taken": "a player at that table has your name already: choose another with --name",
    "too_many_tables": "the server hosts as many tables as it may now: join one of them, "
    "or try again later",
    "too_many_spectators": "that table has as many spectators as it allows: try again later",
    "table_unavailable": "that table's stored game cannot be loaded: ask the server's host "
    "(its log says why)",
    "table_paused": "the table was paused: nobody played at it for a long while; resume "
    "your seat to go on",
    "internal_error": "the server could not store that: try again",
    "malformed_action": "the server could not read that action",
    "game_over": "the game is over",
    "not_your_turn": "it is not your turn",
    "wrong_phase": "that is not possible at this point of the round",
    "illegal_action": "the server refused that action: it is not allowed now",
    "cannot_afford": "you do not hold the cards for that",
    "trade_already_tried": "you have tried a trade this turn already",
}
"""Each error code of the protocol in a player's words (the code itself is never shown)."""


def printable(text: str) -> str:
    """Text from the network made safe for a terminal: control and format characters
    (escapes, bidi overrides, zero-width marks) become ``?``.

    >>> printable("ok\x1b[2Jbad\u202e")
    'ok?[2Jbad?'
    """
    return "".join(
        "?" if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") else ch for ch in text
    )


ACTION_REFUSALS = frozenset({"illegal_action", "cannot_afford", "trade_already_tried"})
"""Codes of a well-formed action the server refused: its message, the engine's reason in a
player's words, says why (unless it names protocol words: then ours stand)."""


def error_words(code: object, detail: object = None) -> str:
    """A server error for the screen: for a refused action, the engine's own reason.

    >>> error_words("stale_version")
    'the game moved on before your action arrived: look again'
    >>> error_words("illegal_action", "those are the offer's own terms: accept it")
    "the server refused that: those are the offer's own terms: accept it"
    """
    said = detail.strip() if isinstance(detail, str) else ""
    if str(code) in ACTION_REFUSALS and said and "_" not in said:
        return "the server refused that: " + printable(said[:200])
    return ERROR_WORDS.get(str(code), "the server refused that")


COMMAND_FORMATS: dict[str, Format] = {
    "lower": lambda value, ctx: str(value).lower(),
    "short": lambda value, ctx: cards_short(value or []),
    "letter": lambda value, ctx: letter(value),
    "letters": lambda value, ctx: ",".join(letter(seat) for seat in value or []),
}
"""The formats of the catalogue's command lines: what the commands accept back."""


def command_line(action: dict[str, Any]) -> str:
    """A command line that makes ``action`` (the protocol's JSON form), from the
    catalogue's ``command`` of its kind: what a hint says to type.

    >>> command_line({"kind": "move", "from": "TY", "to": "24", "pay": ["violet"]})
    'move ty 24 pay v'
    >>> command_line({"kind": "propose", "to": [1, 2], "give": ["orange"], "get": ["green"]})
    'trade o for g to B,C'
    >>> command_line({"kind": "bank_pick", "take": "violet", "pay": ["orange"] * 3})
    'bank 3:1 violet pay o,o,o'
    >>> command_line({"kind": "keep", "cards": []})
    'keep none'
    """
    entry = ACTIONS.get(str(action.get("kind")))
    if entry is None:
        return str(action.get("kind"))
    return render(entry.command, action, Context(), COMMAND_FORMATS)


__all__ = [
    "CARDS",
    "COLOURS",
    "COMMAND_FORMATS",
    "ERROR_WORDS",
    "LETTERS",
    "ORDINALS",
    "Names",
    "answer_words",
    "card_counts",
    "cards_short",
    "cards_text",
    "command_line",
    "completing_words",
    "describe_action",
    "describe_event",
    "describe_target",
    "either",
    "error_words",
    "letter",
    "name_of",
    "printable",
    "sort_cards",
    "who",
]
