"""Words for people: cards, players, actions, events, refusals, and the command line that
makes an action.

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
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

CARDS: tuple[str, ...] = ("orange", "yellow", "green", "violet", "wild")
"""Card kinds in display order (the protocol's order)."""
COLOURS: tuple[str, ...] = CARDS[:4]
LETTERS = "ABCD"
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}

Names = Sequence[str | None]


def letter(seat: int) -> str:
    return LETTERS[seat] if 0 <= seat < len(LETTERS) else "?"


def name_of(seat: int, names: Names) -> str:
    name = names[seat] if 0 <= seat < len(names) else None
    return name or f"player {letter(seat)}"


def who(seat: int, names: Names) -> str:
    """A player as the screen shows them: letter and name."""
    return f"{letter(seat)} {name_of(seat, names)}"


def card_counts(cards: Iterable[str]) -> dict[str, int]:
    """Card names counted, every kind present (zeros included), in display order."""
    counted = Counter(cards)
    return {kind: counted.get(kind, 0) for kind in CARDS}


def sort_cards(cards: Iterable[str]) -> list[str]:
    order = {kind: i for i, kind in enumerate(CARDS)}
    return sorted(cards, key=lambda card: order.get(card, len(CARDS)))


def cards_text(cards: Iterable[str]) -> str:
    """``['green', 'green', 'wild']`` as ``'green x2, wild'`` (``'nothing'`` if empty)."""
    counted = card_counts(cards)
    parts = [kind if n == 1 else f"{kind} x{n}" for kind, n in counted.items() if n]
    return ", ".join(parts) if parts else "nothing"


def cards_short(cards: Iterable[str]) -> str:
    """``['green', 'green', 'wild']`` as ``'g,g,w'``: what a command accepts back."""
    return ",".join(card[0] for card in sort_cards(cards)) or "-"


def describe_action(action: dict[str, Any], names: Names = ()) -> str:
    """One line for an action in the protocol's JSON form."""
    kind = action.get("kind")
    pay = action.get("pay")
    paying = f" paying {cards_text(pay)}" if pay is not None else ""
    if kind == "expand":
        return f"expand {action['colour']} into {action['tile']}"
    if kind == "return_tile":
        return (
            f"put tile {action['tile']} under the pile"
            if "tile" in action
            else "put a tile under the pile"
        )
    if kind == "move":
        return f"move {action['from']} -> {action['to']}{paying}"
    if kind == "city":
        coast = str(action.get("ship", ""))
        extra = f" (the ship on {coast} goes home)" if coast[-1:] in ("W", "E") else ""
        return f"build a city in {action['space']}{paying}{extra}"
    if kind == "ship":
        return f"build a ship in {action['space']}{paying}"
    if kind == "bank_draw":
        count = len(pay or [])
        return f"discard {cards_text(pay or [])}, draw {count}"
    if kind == "bank_pick":
        return f"discard {cards_text(pay or [])}, take {action['take']} from the discards"
    if kind == "propose":
        asked = ", ".join(who(s, names) for s in action.get("to", []))
        return (
            f"offer {cards_text(action.get('give', []))} for "
            f"{cards_text(action.get('get', []))} to {asked}"
        )
    if kind == "answer":
        return "accept the offer" if action.get("accept") else "decline the offer"
    if kind == "complete":
        return f"complete the trade with {who(action['with'], names)}"
    if kind == "withdraw":
        return "withdraw the offer"
    if kind == "counter":  # the proposer's side: the counter-offerer gives ``get``
        return (
            f"counter-offer: gives {cards_text(action.get('get', []))} for "
            f"{cards_text(action.get('give', []))}"
        )
    if kind == "give_card":
        card = action.get("card")
        target = who(action["to"], names) if "to" in action else "the city owner"
        article = "an" if card and card[0] in "aeiou" else "a"
        return f"give {article + ' ' + card if card else 'a card'} to {target}"
    if kind == "keep":
        cards = action.get("cards")
        return f"keep {cards_text(cards)}" if cards is not None else "keep cards"
    return str(kind)


def describe_event(event: dict[str, Any], names: Names, viewer: int | None) -> str | None:
    """One log line for an event as this seat sees it (None: not worth a line)."""
    kind = event.get("type")
    seat = event.get("seat")
    player = who(seat, names) if isinstance(seat, int) else ""
    if kind == "starting_seat":
        return f"{player} is the starting player"
    if kind == "start_tile":
        verdict = "founds an empire" if event.get("accepted") else "is too close, put back"
        return f"start tile {event.get('tile')} {verdict}"
    if kind == "empire_founded":
        return f"the {event.get('colour')} empire begins in {event.get('space')}"
    if kind == "tyros_coloured":
        return f"Tyros joins the {event.get('colour')} empire"
    if kind == "tiles_dealt":
        mine = f": {', '.join(event['tiles'])}" if "tiles" in event else ""
        return f"{player} is dealt {event.get('count')} tiles{mine}"
    if kind == "round_start":
        starter = event.get("starting_seat")
        first = f", {who(starter, names)} starts" if isinstance(starter, int) else ""
        return f"=== round {event.get('round')}{first} ==="
    if kind == "cards_dealt":
        mine = f": {cards_text(event['cards'])}" if "cards" in event else ""
        return f"{player} is dealt {event.get('count')} cards{mine}"
    if kind == "expansion_skipped":
        why = "has no tiles" if event.get("reason") == "no_tiles" else "cannot expand"
        return f"{player} {why}: no expansion"
    if kind == "tiles_revealed":
        return f"{player} cannot expand and shows tiles {', '.join(event.get('tiles', []))}"
    if kind == "tile_drawn":
        mine = f" ({event['tile']})" if "tile" in event else ""
        return f"{player} draws a tile{mine}"
    if kind == "actions_start":
        return f"card actions begin with {player}"
    if kind == "action":
        action = dict(event.get("action", {}))
        if action.get("kind") == "give_card" and "to" not in action and "to" in event:
            action["to"] = event["to"]
        yours = event.get("seat") == viewer and viewer is not None
        by = {
            "clock": " (time ran out: the server chose)",
            "takeover": " (a bot, for you)" if yours else " (a bot, for them)",
        }
        return f"{player}: {describe_action(action, names)}{by.get(str(event.get('by')), '')}"
    if kind == "cards_drawn":
        mine = f": {cards_text(event['cards'])}" if "cards" in event else ""
        count = event.get("count")
        return f"{player} draws {count} card{'' if count == 1 else 's'}{mine}"
    if kind == "trade_completed":
        return (
            f"{player} trades {cards_text(event.get('give', []))} for "
            f"{cards_text(event.get('get', []))} with {who(event.get('with', -1), names)}"
        )
    if kind == "all_four_empires":
        return f"{player} has cities in all four empires: bonus"
    if kind == "cards_discarded":
        return f"{player} discards {cards_text(event.get('cards', []))}"
    if kind == "round_end":
        return f"round {event.get('round')} ends"
    if kind == "game_end":
        score = event.get("score") or {}
        winners = [who(s, names) for s in score.get("winners", [])]
        return f"the game is over: {' and '.join(winners) or 'nobody'} won"
    return None


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


def command_line(action: dict[str, Any]) -> str:
    """A command line that makes ``action`` (the protocol's JSON form): what a hint says
    to type.

    >>> command_line({"kind": "move", "from": "TY", "to": "24", "pay": ["violet"]})
    'move ty 24 pay v'
    >>> command_line({"kind": "propose", "to": [1, 2], "give": ["orange"], "get": ["green"]})
    'trade o for g to B,C'
    >>> command_line({"kind": "bank_pick", "take": "violet", "pay": ["orange"] * 3})
    'bank 3:1 violet pay o,o,o'
    """
    kind = action.get("kind")
    pay = cards_short(action.get("pay") or [])
    if kind == "move":
        return f"move {action['from'].lower()} {action['to'].lower()} pay {pay}"
    if kind == "city":
        return f"city {action['space'].lower()} pay {pay}"
    if kind == "ship":
        return f"ship {action['space'].lower()} pay {pay}"
    if kind == "bank_draw":
        return f"bank {pay}"
    if kind == "bank_pick":
        return f"bank 3:1 {action['take']} pay {pay}"
    if kind == "propose":
        to = ",".join(LETTERS[seat] for seat in action["to"])
        return f"trade {cards_short(action['give'])} for {cards_short(action['get'])} to {to}"
    if kind == "keep":
        return f"keep {cards_short(action['cards'])}" if action["cards"] else "keep none"
    if kind == "expand":
        return f"expand {action['tile']} {action['colour']}"
    if kind == "return_tile":
        return f"return {action['tile']}"
    if kind == "answer":
        return "accept" if action["accept"] else "decline"
    if kind == "complete":
        return f"complete {LETTERS[action['with']]}"
    if kind == "give_card":
        return f"give {action['card']}"
    if kind == "counter":  # typed from the player's own side: what it gives, for what
        return f"counter {cards_short(action['get'])} for {cards_short(action['give'])}"
    return str(kind)  # pass, withdraw
