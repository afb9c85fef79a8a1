"""The command line: parse what the player typed into one of the prompt's legal actions.

Pure functions, no terminal and no rules: every action comes from the legal
list the server sent with the prompt (a trade proposal, which the server
lists only in part, is built from the words and checked by the server).
:func:`parse` gives one of

- :class:`Act`: send this action;
- :class:`Choose`: several legal actions fit, let the player pick (a dialog);
- :class:`Local`: a command for the client itself (``help``, ``legal``, ``quit`` ...);
- :class:`Problem`: nothing fits; the message says why and what would.

Payments default to the sensible choice: among the legal payments the one with
the fewest wild cards (so colour cards go before wilds). When several payments
tie, the player chooses; ``pay CARDS`` names one (``pay green,wild``, ``pay 2g w``).

>>> ctx = Context(legal=[{"kind": "pass"},
...                      {"kind": "move", "from": "TY", "to": "31", "pay": ["violet"]},
...                      {"kind": "move", "from": "TY", "to": "31", "pay": ["wild"]}])
>>> parse("move ty 31", ctx)
Act(action={'kind': 'move', 'from': 'TY', 'to': '31', 'pay': ['violet']})
>>> parse("move ty 31 pay w", ctx).action["pay"]
['wild']
>>> parse("pass", ctx)
Act(action={'kind': 'pass'})
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tyros_protocol.board import BOARD, BoardError

from . import why as why_not
from .text import CARDS, COLOURS, LETTERS, cards_short, cards_text, describe_action, name_of, who

Action = dict[str, Any]


@dataclass(frozen=True)
class Context:
    """What a command is parsed against: the prompt's legal actions and the seat's view."""

    legal: Sequence[Action] = ()
    seat: int | None = None
    players: int = 4
    names: Sequence[str | None] = ()
    hand: Sequence[str] = ()
    tiles: Sequence[str] = ()
    trade: Mapping[str, Any] | None = None
    view: Mapping[str, Any] | None = None
    """The seat's view, for explaining refusals (never for deciding what is legal)."""

    @classmethod
    def from_view(
        cls,
        view: Mapping[str, Any] | None,
        prompt: Mapping[str, Any] | None,
        names: Sequence[str | None],
        seat: int | None,
    ) -> Context:
        view = view or {}
        return cls(
            legal=list((prompt or {}).get("legal") or []),
            seat=seat,
            players=int(view.get("players", len(names) or 4)),
            names=list(names),
            hand=list(view.get("hand") or []),
            tiles=list(view.get("tiles") or []),
            trade=view.get("trade"),
            view=view or None,
        )

    def of_kind(self, *kinds: str) -> list[Action]:
        return [a for a in self.legal if a.get("kind") in kinds]


@dataclass(frozen=True)
class Act:
    action: Action


@dataclass(frozen=True)
class Prefill:
    """A choice that sends nothing: it types ``text`` into the command line, for the
    player to finish (a counter-offer's cards are too many to list as choices)."""

    text: str


@dataclass(frozen=True)
class Choose:
    title: str
    text: str
    options: tuple[tuple[str, Action | Prefill], ...]


@dataclass(frozen=True)
class Local:
    command: str
    argument: str = ""


@dataclass(frozen=True)
class Say:
    """A line of table talk to send (the words as typed)."""

    text: str


@dataclass(frozen=True)
class Problem:
    message: str


Result = Act | Choose | Local | Say | Problem


Handler = Callable[[str, "Context"], Result]


class CommandError(ValueError):
    """Words that cannot be understood (the message says what was expected)."""


# Help ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CommandHelp:
    usage: str
    about: str
    examples: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    aliases: tuple[str, ...] = field(default=())


COMMANDS: dict[str, CommandHelp] = {
    "expand": CommandHelp(
        "expand TILE [COLOUR]",
        "play a map tile next to an empire; name the colour when the tile "
        "touches two empires (else a dialog asks)",
        ("expand 12", "expand 12 orange", "expand 12 o"),
        ("expand",),
        ("play",),
    ),
    "return": CommandHelp(
        "return TILE",
        "you cannot expand: put this tile under the pile and draw the top one",
        ("return 5",),
        ("return_tile",),
    ),
    "move": CommandHelp(
        "move [FROM] TO [pay CARDS]",
        "move a ship; it costs one card of the destination's colour per step "
        "(wilds count as any colour). While you type, the map shows the "
        "destinations and their costs ($n)",
        ("move 31 27", "move ty 23", "move 27", "move 12 16e pay g,w"),
        ("move",),
    ),
    "city": CommandHelp(
        "city SPACE [pay CARDS]",
        "build a city where only your ships are (5 cards, 4 with two ships)",
        ("city 27", "city 27 pay 3g,w"),
        ("city",),
    ),
    "ship": CommandHelp(
        "ship SPACE [pay CARDS]",
        "build a ship in one of your cities (1 card of its colour; 2 beside a ship there, "
        "one of them of its colour), or in Tyros while it has no city (as many cards of any "
        "colours as the ships there, plus one)",
        ("ship tyros", "ship 27 pay green"),
        ("ship",),
    ),
    "bank": CommandHelp(
        "bank CARDS | bank N | bank 3:1 COLOUR [pay CARDS]",
        "trade with the bank: discard 1-3 cards and draw as many; or discard 3 "
        "and take one card from the discard pile",
        ("bank o,y", "bank 2", "bank 3:1 violet", "bank 3:1 v pay o,o,y"),
        ("bank_draw", "bank_pick"),
    ),
    "trade": CommandHelp(
        "trade GIVE for GET [to PLAYERS]",
        "offer a trade to other players (default: everyone); any number of "
        "cards, the server checks the offer",
        ("trade green for violet", "trade 2g for v,w to B", "trade give o get y to bob,c"),
        ("propose",),
    ),
    "accept": CommandHelp("accept", "accept the trade offered to you", ("accept",), ("answer",)),
    "decline": CommandHelp(
        "decline", "decline the trade offered to you", ("decline",), ("answer",)
    ),
    "complete": CommandHelp(
        "complete PLAYER",
        "complete your offer with a player who accepted it (or on the terms of its counter)",
        ("complete B", "complete bob"),
        ("complete",),
    ),
    "withdraw": CommandHelp("withdraw", "withdraw your trade offer", ("withdraw",), ("withdraw",)),
    "counter": CommandHelp(
        "counter GIVE for GET",
        "answer an offer with other terms: you give GIVE for GET (the proposer may complete "
        "on them)",
        ("counter orange for green", "counter 2g for violet,wild"),
        ("counter",),
    ),
    "give": CommandHelp(
        "give CARD",
        "give a card to the owner of the city you moved into",
        ("give green", "give w"),
        ("give_card",),
    ),
    "keep": CommandHelp(
        "keep CARDS",
        "end of round: the cards you keep, at most 3 (the rest are discarded)",
        ("keep g,g,w", "keep 2green wild", "keep none"),
        ("keep",),
    ),
    "pass": CommandHelp("pass", "take no card action this turn", ("pass",), ("pass",)),
    "answer": CommandHelp("answer", "open the dialog for what is asked of you now", ("answer",)),
    "legal": CommandHelp("legal", "list what you may do now (F2)", ("legal",)),
    "log": CommandHelp("log", "show the game log again (F3; PageUp/PageDown scroll it)", ("log",)),
    "score": CommandHelp("score", "show the score sheet (at the end of the game)", ("score",)),
    "say": CommandHelp(
        "say TEXT",
        "talk to the table (F5): a player is heard by all, a spectator by the spectators",
        ("say two green for your violet?", "say gg"),
        (),
        ("chat",),
    ),
    "hint": CommandHelp(
        "hint",
        "the three best options for the decision in front of you (F8), thought about by a bot "
        "in this program from what you can see; the record marks a decision made after a hint",
        ("hint",),
    ),
    "help": CommandHelp(
        "help [COMMAND]", "this help, or one command's (F1)", ("help", "help move")
    ),
    "act": CommandHelp(
        "act JSON", "send an action as the protocol's JSON (for experts)", ('act {"kind": "pass"}',)
    ),
    "quit": CommandHelp(
        "quit",
        "leave (your seat waits for you: run the same command again to come back)",
        ("quit",),
        (),
        ("exit",),
    ),
}

ALIASES: dict[str, str] = {alias: name for name, info in COMMANDS.items() for alias in info.aliases}
_KIND_COMMAND: dict[str, str] = {
    "expand": "expand",
    "return_tile": "return",
    "move": "move",
    "city": "city",
    "ship": "ship",
    "bank_draw": "bank",
    "bank_pick": "bank",
    "propose": "trade",
    "counter": "counter",
    "answer": "accept",
    "complete": "complete",
    "withdraw": "withdraw",
    "give_card": "give",
    "keep": "keep",
    "pass": "pass",
}
_UI_COMMANDS = ("help", "hint", "legal", "log", "score", "say", "quit")

CARDS_HELP = (
    "CARDS: card names or first letters, with counts, separated by commas or "
    "spaces: 'green,wild', 'g w', '2g,w', 'green x2'. Colours: orange, yellow, "
    "green, violet; wild."
)
PLAYERS_HELP = "PLAYERS: letters or names, separated by commas: 'B', 'b,c', 'bob'."


def help_lines(command: str = "") -> list[str]:
    """The help text: every command with its examples, or one command's."""
    name = ALIASES.get(command, command)
    if name:
        info = COMMANDS.get(name)
        if info is None:
            return [f"no command {command!r}; type help for the list"]
        lines = [info.usage, f"  {info.about}"]
        lines += [f"  e.g. {example}" for example in info.examples]
        if "CARDS" in info.usage:
            lines.append(CARDS_HELP)
        if "PLAYERS" in info.usage:
            lines.append(PLAYERS_HELP)
        return lines
    lines = ["Commands (Tab completes; only what is legal now is offered; 'help move' shows one):"]
    for info in COMMANDS.values():
        lines.append(info.usage)
        lines.append(f"    {info.about}")
        if info.examples:
            lines.append("    e.g. " + " | ".join(info.examples))
    lines += [
        CARDS_HELP,
        PLAYERS_HELP,
        "Spaces: numbers, TY or a name (tyros, creta); Italy's coasts are 16W and 16E.",
        "Map: * your tiles, ~ sea links, letters are players' ships (A: the first player ...), "
        "[A] / city A a city, $n the cost of a move, W/E Italy's two coasts.",
        "Table: cards and tiles in hand (! when the tiles were shown), supply: ships/cities "
        "left to build, pts: the score if the game ended now; Empires: size and #rank.",
        "Keys: Enter sends, Tab completes, F1 help, F2 legal, F3 log, F4 answer in a dialog, "
        "F5 say, F8 hint, PageUp/PageDown scroll (End: the newest lines), Esc closes a dialog, "
        "Ctrl-C quits.",
    ]
    return lines


def legal_lines(ctx: Context) -> list[str]:
    """What the player may do now, one line per action (long families summarised)."""
    if not ctx.legal:
        if ctx.seat is None:
            return [
                "you are watching: a spectator has nothing to play "
                "(say TEXT talks to the other spectators)"
            ]
        return ["nothing to do now: wait for your turn"]
    groups: dict[str, list[Action]] = {}
    for action in ctx.legal:
        groups.setdefault(str(action.get("kind")), []).append(action)
    lines: list[str] = []
    for kind, actions in groups.items():
        if kind == "move":
            pairs: dict[tuple[str, str], int] = {}
            for a in actions:
                key = (a["from"], a["to"])
                pairs[key] = min(pairs.get(key, 99), len(a["pay"]))
            lines.append(f"move ({len(pairs)} destination{'s' if len(pairs) != 1 else ''}):")
            lines += [
                f"  move {f} {t}   cost {c}"
                for (f, t), c in sorted(
                    pairs.items(), key=lambda item: (_order(item[0][0]), _order(item[0][1]))
                )
            ]
        elif kind in ("city", "ship"):
            spaces: dict[str, Action] = {}
            for a in sorted(actions, key=_wilds):
                spaces.setdefault(a["space"], a)
            for space, a in spaces.items():
                lines.append(f"{kind} {space}   e.g. paying {cards_text(a['pay'])}")
        elif kind == "bank_draw":
            lines.append("bank CARDS   discard 1-3 cards, draw as many (bank 2, bank o,y)")
        elif kind == "bank_pick":
            takes = sorted({a["take"] for a in actions}, key=CARDS.index)
            lines.append(f"bank 3:1 COLOUR   discard 3, take one of: {', '.join(takes)}")
        elif kind == "propose":
            lines.append("trade GIVE for GET [to PLAYERS]   offer a trade (any cards)")
        elif kind == "keep":
            lines.append(
                f"keep CARDS   keep up to 3 of {cards_text(ctx.hand)} "
                f"({len(actions)} ways; 'keep' opens the dialog)"
            )
        else:
            lines += [f"{command_line(a)}   {describe_action(a, ctx.names)}" for a in actions]
    return lines


def command_line(action: Action) -> str:
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


def _order(label: str) -> tuple[int, str]:
    digits = "".join(ch for ch in label if ch.isdigit())
    return (int(digits) if digits else 0, label)


# Words ---------------------------------------------------------------------------

_CARD_TOKEN = re.compile(r"^(\d*)\s*([a-z]+)(?:\s*[x*](\d+))?$")


def parse_cards(text: str) -> list[str]:
    """Card names from the player's words.

    >>> parse_cards("green,wild"), parse_cards("2g w"), parse_cards("violet x2")
    (['green', 'wild'], ['green', 'green', 'wild'], ['violet', 'violet'])
    >>> parse_cards("-")
    []
    """
    text = text.strip().lower()
    if text in ("", "-", "none", "nothing"):
        return []
    text = re.sub(r"\s*[x*]\s*(\d+)", r"x\1", text)
    text = re.sub(r"(^|[\s,+])(\d+)\s+(?=[a-z])", r"\1\2", text)
    out: list[str] = []
    for token in re.split(r"[\s,+]+", text):
        if not token:
            continue
        found = _CARD_TOKEN.match(token)
        if not found:
            raise CommandError(f"not a card: {token!r}")
        before, word, after = found.groups()
        card = _card(word)
        count = int(before or 1) * int(after or 1)
        if count > 20:
            raise CommandError(f"too many cards: {token!r}")
        out.extend([card] * count)
    return out


def _card(word: str) -> str:
    for card in CARDS:
        if word in (card, card[0]) or (len(word) >= 3 and card.startswith(word)):
            return card
    raise CommandError(f"not a card: {word!r} (orange, yellow, green, violet or wild)")


def _colour(word: str) -> str:
    card = _card(word.lower())
    if card not in COLOURS:
        raise CommandError("a colour is orange, yellow, green or violet")
    return card


def resolve_space(token: str) -> str:
    """A space label from a number, ``ty``, a name or the start of one.

    >>> resolve_space("tyros"), resolve_space("creta"), resolve_space("16e"), resolve_space("7")
    ('TY', '23', '16', '7')
    """
    word = token.strip()
    upper = word.upper()
    if upper in BOARD.port_labels:
        return BOARD.space_labels[BOARD.port_space[BOARD.port_labels.index(upper)]]
    try:
        return BOARD.space_label(BOARD.parse_space(word))
    except BoardError:
        pass
    lowered = word.lower()
    exact = [i for i, name in enumerate(BOARD.names) if name.lower() == lowered]
    if lowered == "tyros":
        exact = [0]
    starts = [i for i, name in enumerate(BOARD.names) if name.lower().startswith(lowered)]
    found = exact or (starts if len(lowered) >= 3 else [])
    if len(found) == 1:
        return BOARD.space_labels[found[0]]
    if len(found) > 1:
        names = ", ".join(f"{BOARD.space_labels[i]} {BOARD.names[i]}" for i in found)
        raise CommandError(f"{token!r} could be {names}")
    raise CommandError(f"no space {token!r} (numbers 1-32, TY, or a name)")


def _port_filter(token: str) -> tuple[str, str | None]:
    """(space label, exact port or None) for a word naming a port or a space."""
    upper = token.strip().upper()
    if upper in BOARD.port_labels and upper[-1:] in ("W", "E"):
        return resolve_space(token), upper
    return resolve_space(token), None


def _port_matches(port: str, wanted: tuple[str, str | None]) -> bool:
    space, exact = wanted
    if exact is not None:
        return port == exact
    return _space_of_port(port) == space


def _space_of_port(port: str) -> str:
    return BOARD.space_labels[BOARD.port_space[BOARD.port_labels.index(port)]]


def resolve_player(token: str, ctx: Context) -> int:
    """A seat from a letter or a name (or the start of one)."""
    word = token.strip().lower()
    players = range(ctx.players)
    if len(word) == 1 and word.upper() in LETTERS[: ctx.players]:
        return LETTERS.index(word.upper())
    exact = [s for s in players if name_of(s, ctx.names).lower() == word]
    starts = [s for s in players if name_of(s, ctx.names).lower().startswith(word)]
    found = exact or starts
    if len(found) == 1:
        return found[0]
    if found:
        raise CommandError(f"{token!r} could be " + ", ".join(who(s, ctx.names) for s in found))
    raise CommandError(f"no player {token!r}")


def _wilds(action: Action) -> tuple[int, int, list[int]]:
    pay = action.get("pay") or []
    order = {card: i for i, card in enumerate(CARDS)}
    return (pay.count("wild"), len(pay), sorted(order[c] for c in pay))


def _same_cards(a: Sequence[str], b: Sequence[str]) -> bool:
    return sorted(a) == sorted(b)


# Parsing ------------------------------------------------------------------------


def parse(line: str, ctx: Context) -> Result:
    """The result of one command line (see the module's docstring)."""
    words = line.strip().split(None, 1)
    if not words:
        return Problem("type a command (help lists them)")
    head = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    head = ALIASES.get(head, head)
    handler = _HANDLERS.get(head)
    if handler is None:
        return Problem(f"unknown command {words[0]!r}; " + _now_hint(ctx))
    try:
        return handler(rest, ctx)
    except CommandError as exc:
        return Problem(str(exc))


def _now_hint(ctx: Context) -> str:
    if not ctx.legal:
        waiting = why_not.turn_problem(ctx.view, ctx.seat, ctx.names)
        return waiting or "nothing is asked of you now (type help for the commands)"
    commands = []
    for action in ctx.legal:
        name = _KIND_COMMAND.get(str(action.get("kind")), "")
        if name == "accept" and not action.get("accept"):
            name = "decline"
        if name and name not in commands:
            commands.append(name)
    return "now you can: " + ", ".join(commands)


def _not_now(what: str, ctx: Context, why: str | None = None) -> Problem:
    """``what`` is not among the legal actions: say why (whose turn, what is in the way),
    then what the player can do instead."""
    waiting = None if ctx.legal else why_not.turn_problem(ctx.view, ctx.seat, ctx.names)
    if waiting is not None:
        return Problem(f"you cannot {what} now: {waiting}")
    phase = (ctx.view or {}).get("phase")
    needed = _PHASE_OF.get(what.split()[0])
    if why is None and what == "offer a trade" and (ctx.view or {}).get("trade_tried"):
        why = "your trade offer fell through this turn (one offer a turn)"
    if why is None and needed is not None and phase is not None and phase != needed:
        why = f"that is for {_PHASE_WORDS[needed]}, and this is {_PHASE_WORDS.get(phase, phase)}"
    reason = f": {why}" if why else ""
    return Problem(f"you cannot {what} now{reason}; " + _now_hint(ctx))


_PHASE_OF = {
    "pass": "actions",
    "expand": "expand",
    "put": "expand",
    "move": "actions",
    "build": "actions",
    "trade": "actions",
    "offer": "actions",
    "keep": "keep",
    "give": "give_card",
}
"""A refused command's first word -> the phase it belongs to."""
_PHASE_WORDS = {
    "expand": "the expansion",
    "actions": "the card actions",
    "keep": "the end of the round (keeping cards)",
    "trade": "a trade",
    "give_card": "a card owed to a city owner",
    "over": "the end of the game",
}


def _split_pay(rest: str) -> tuple[list[str], list[str] | None]:
    """Positional words and the payment after ``pay`` (None if not given)."""
    words = rest.split()
    lowered = [w.lower() for w in words]
    if "pay" in lowered:
        at = lowered.index("pay")
        return words[:at], parse_cards(" ".join(words[at + 1 :]))
    return words, None


def _pick_payment(candidates: list[Action], pay: list[str] | None, what: str) -> Result:
    """One action among variants that differ only in payment."""
    ordered = sorted(candidates, key=_wilds)
    if pay is not None:
        for action in ordered:
            if _same_cards(action.get("pay", []), pay):
                return Act(action)
        options = "; ".join(cards_short(a["pay"]) for a in ordered[:8])
        more = " ..." if len(ordered) > 8 else ""
        return Problem(f"cannot pay {cards_text(pay)} to {what}; you may pay: {options}{more}")
    fewest = [a for a in ordered if _wilds(a)[0] == _wilds(ordered[0])[0]]
    if len(fewest) == 1:
        return Act(fewest[0])
    return Choose(
        f"How do you pay to {what}?",
        "Several payments are legal; pick one (or type the command again with pay CARDS).",
        tuple((f"pay {cards_text(a['pay'])}", a) for a in ordered),
    )


def _pass(rest: str, ctx: Context) -> Result:
    found = ctx.of_kind("pass")
    return Act(found[0]) if found else _not_now("pass", ctx)


def _withdraw(rest: str, ctx: Context) -> Result:
    found = ctx.of_kind("withdraw")
    return Act(found[0]) if found else Problem("you have no trade offer to withdraw")


def _expand(rest: str, ctx: Context) -> Result:
    options = ctx.of_kind("expand")
    if not options:
        if ctx.of_kind("return_tile"):
            return Problem(
                "no tile of yours touches an empire: choose one to put back (return TILE)"
            )
        return _not_now("expand", ctx)
    words = rest.split()
    if not words:
        return Choose(
            "Expand an empire",
            "Play one of your tiles next to an empire.",
            tuple((describe_action(a), a) for a in options),
        )
    tile = resolve_space(words[0])
    fits = [a for a in options if a["tile"] == tile]
    if not fits:
        playable = sorted({a["tile"] for a in options}, key=_order)
        held = "you do not hold tile" if tile not in ctx.tiles else "no empire touches"
        return Problem(f"{held} {tile}; you can play: {', '.join(playable)}")
    if len(words) > 1:
        colour = _colour(words[1])
        chosen = [a for a in fits if a["colour"] == colour]
        if not chosen:
            colours = ", ".join(a["colour"] for a in fits)
            return Problem(f"tile {tile} touches no {colour} empire; it can be {colours}")
        return Act(chosen[0])
    if len(fits) == 1:
        return Act(fits[0])
    return Choose(
        f"Tile {tile} touches {len(fits)} empires",
        f"Which empire grows into {tile}?",
        tuple((f"{a['colour']} empire", a) for a in fits),
    )


def _return(rest: str, ctx: Context) -> Result:
    options = ctx.of_kind("return_tile")
    if not options:
        return _not_now("put a tile back", ctx)
    words = rest.split()
    if not words:
        return Choose(
            "You cannot expand",
            "None of your tiles touches an empire. Choose the "
            "tile to put under the pile; you draw the top tile instead.",
            tuple((f"put back tile {a['tile']}", a) for a in options),
        )
    tile = resolve_space(words[0])
    for action in options:
        if action["tile"] == tile:
            return Act(action)
    return Problem(
        f"you do not hold tile {tile}; you hold " + ", ".join(a["tile"] for a in options)
    )


def _move(rest: str, ctx: Context) -> Result:
    options = ctx.of_kind("move")
    words, pay = _split_pay(rest)
    if not options:
        why = None
        if words and len(words) <= 2 and ctx.view and ctx.seat is not None:
            why = why_not.move_problem(
                ctx.view, ctx.seat, words[0] if len(words) == 2 else None, words[-1], ctx.names
            )
        return _not_now("move a ship", ctx, why)
    if not words or len(words) > 2:
        return Problem("move [FROM] TO [pay CARDS], e.g. move 31 27")
    start = _port_filter(words[0]) if len(words) == 2 else None
    end = _port_filter(words[-1])
    fits = [
        a
        for a in options
        if _port_matches(a["to"], end) and (start is None or _port_matches(a["from"], start))
    ]
    if not fits:
        why = ""
        if ctx.view and ctx.seat is not None:
            why = ": " + why_not.move_problem(
                ctx.view, ctx.seat, words[0] if start is not None else None, words[-1], ctx.names
            )
        if start is not None:
            from_here = [a for a in options if _port_matches(a["from"], start)]
            if not from_here:
                origins = sorted({a["from"] for a in options}, key=_order)
                return Problem(
                    f"no ship of yours can move from {words[0]}{why}; ships that "
                    f"can move: {', '.join(origins)}"
                )
            return Problem(
                f"you cannot move from {words[0]} to {words[1]}{why}; from "
                f"{words[0]} you can reach: " + _destinations(from_here)
            )
        return Problem(
            f"no ship of yours can reach {words[-1]} now{why}; reachable: " + _destinations(options)
        )
    if pay is not None:
        fits = [a for a in fits if _same_cards(a["pay"], pay)] or fits
    routes: dict[tuple[str, str], list[Action]] = {}
    for action in fits:
        routes.setdefault((action["from"], action["to"]), []).append(action)
    if len(routes) == 1:
        ((route, actions),) = routes.items()
        return _pick_payment(actions, pay, f"move {route[0]} -> {route[1]}")
    choices = []
    for (origin, target), actions in sorted(routes.items()):
        best = min(actions, key=_wilds)
        choices.append((f"move {origin} -> {target} paying {cards_text(best['pay'])}", best))
    return Choose("Which move?", "Several ships or coasts fit; pick one.", tuple(choices))


def _destinations(actions: Sequence[Action]) -> str:
    costs: dict[str, int] = {}
    for action in actions:
        costs[action["to"]] = min(costs.get(action["to"], 99), len(action["pay"]))
    return ", ".join(f"{to} (${c})" for to, c in sorted(costs.items(), key=lambda i: _order(i[0])))


_NONE_ANYWHERE = {
    "city": "a city needs your ships alone in an empire's space, and 5 cards of its colour "
    "(4 beside two of your ships), wild cards counted",
    "ship": "a ship is built in Tyros or in a space with your city, paying cards of its colour",
}


def _build_in_space(
    kind: str, what: str, example: str, rest: str, ctx: Context
) -> tuple[str, list[Action], list[str] | None] | Result:
    """Parse ``SPACE [pay CARDS]`` for building ``what``: (space, its actions, pay), or why not."""
    options = ctx.of_kind(kind)
    words, pay = _split_pay(rest)
    explain = why_not.city_problem if kind == "city" else why_not.ship_problem
    if not options:
        why = None
        if len(words) == 1 and ctx.view and ctx.seat is not None:
            try:
                space = resolve_space(words[0])
            except CommandError:
                space = words[0]
            why = explain(ctx.view, ctx.seat, space, ctx.names)
        return _not_now(f"build {what}", ctx, why or _NONE_ANYWHERE[kind])
    if len(words) != 1:
        return Problem(f"{kind} SPACE [pay CARDS], e.g. {example}")
    space = resolve_space(words[0])
    fits = [a for a in options if a["space"] == space]
    if not fits:
        where = sorted({a["space"] for a in options}, key=_order)
        why = (
            explain(ctx.view, ctx.seat, space, ctx.names)
            if ctx.view and ctx.seat is not None
            else "not possible now"
        )
        return Problem(f"you cannot build {what} in {space}: {why}; you can in: {', '.join(where)}")
    return space, fits, pay


def _city(rest: str, ctx: Context) -> Result:
    parsed = _build_in_space("city", "a city", "city 27", rest, ctx)
    if not isinstance(parsed, tuple):
        return parsed
    space, fits, pay = parsed
    ships: dict[str, list[Action]] = {}
    for action in fits:
        ships.setdefault(action["ship"], []).append(action)
    if len(ships) == 1:
        return _pick_payment(fits, pay, f"build a city in {space}")
    choices = []
    for port, actions in sorted(ships.items()):
        picked = _pick_payment(actions, pay, f"build a city in {space}")
        best = picked.action if isinstance(picked, Act) else min(actions, key=_wilds)
        choices.append((f"the ship on {port} goes home (pay {cards_text(best['pay'])})", best))
    return Choose(
        f"City in {space}", "You have ships on both coasts: which one goes home?", tuple(choices)
    )


def _ship(rest: str, ctx: Context) -> Result:
    parsed = _build_in_space("ship", "a ship", "ship tyros", rest, ctx)
    if not isinstance(parsed, tuple):
        return parsed
    space, fits, pay = parsed
    return _pick_payment(fits, pay, f"build a ship in {space}")


def _bank(rest: str, ctx: Context) -> Result:
    draws, picks = ctx.of_kind("bank_draw"), ctx.of_kind("bank_pick")
    if not draws and not picks:
        return _not_now("trade with the bank", ctx)
    words = rest.split()
    if not words:
        return Problem(
            "bank CARDS (discard them, draw as many), bank N, or bank 3:1 COLOUR [pay CARDS]"
        )
    first = words[0].lower()
    if first in ("3:1", "take", "pick"):
        if len(words) < 2:
            return Problem("bank 3:1 COLOUR: which card do you take from the discard pile?")
        take = _card(words[1].lower())
        fits = [a for a in picks if a["take"] == take]
        if not fits:
            there = sorted({a["take"] for a in picks}, key=CARDS.index)
            if not picks:
                return Problem("you cannot take from the discard pile now (3 cards needed)")
            return Problem(
                f"there is no {take} card in the discard pile; there are: {', '.join(there)}"
            )
        tail = [w for w in words[2:] if w.lower() != "pay"]
        pay = parse_cards(" ".join(tail)) if tail else None
        return _pick_payment(fits, pay, f"take a {take} card")
    if first == "draw":
        words = words[1:]
    if not draws:
        return Problem("you cannot draw from the bank now (the draw pile is empty)")
    if len(words) == 1 and words[0].isdigit():
        count = int(words[0])
        fits = [a for a in draws if len(a["pay"]) == count]
        if not fits:
            return Problem("discard 1, 2 or 3 cards (as many as the draw pile holds)")
        return _pick_payment(fits, None, f"draw {count}")
    cards = parse_cards(" ".join(words))
    for action in draws:
        if _same_cards(action["pay"], cards):
            return Act(action)
    return Problem(
        f"you cannot discard {cards_text(cards)} to draw: discard 1 to 3 cards "
        f"you hold ({cards_text(ctx.hand)})"
    )


def _trade(rest: str, ctx: Context) -> Result:
    if not ctx.of_kind("propose"):
        if ctx.trade is not None and ctx.seat == ctx.trade.get("proposer"):
            return Problem("your offer is out: complete PLAYER or withdraw")
        return _not_now("offer a trade", ctx)
    words = rest.split()
    lowered = [w.lower() for w in words]
    seats = [s for s in range(ctx.players) if s != ctx.seat]
    if "to" in lowered:
        at = lowered.index("to")
        names = " ".join(words[at + 1 :])
        if names.strip().lower() in ("all", "everyone", "everybody"):
            asked = seats
        else:
            asked = sorted({resolve_player(t, ctx) for t in re.split(r"[\s,]+", names) if t})
        words, lowered = words[:at], lowered[:at]
        if not asked or ctx.seat in asked:
            return Problem("ask one or more other players")
    else:
        asked = seats
    if lowered[:1] == ["give"] and "get" in lowered:
        at = lowered.index("get")
        give, get = " ".join(words[1:at]), " ".join(words[at + 1 :])
    elif "for" in lowered:
        at = lowered.index("for")
        give, get = " ".join(words[:at]), " ".join(words[at + 1 :])
    else:
        return Problem("trade GIVE for GET [to PLAYERS], e.g. trade green for violet to B")
    terms = _terms(give, get, "trade")
    if isinstance(terms, Problem):
        return terms
    given, wanted = terms
    lacking = _lacking(given, ctx)
    if lacking:  # said here, in words: the server would only say "cannot afford"
        return Problem(lacking + " to offer")
    return Act({"kind": "propose", "to": asked, "give": given, "get": wanted})


def _terms(give: str, get: str, command: str) -> tuple[list[str], list[str]] | Problem:
    """A trade's or counter-offer's two sides as typed (the player's: what it gives, what it
    gets), as card names in the game's order, or why they cannot be sent."""
    half = _half_typed(give, get, command)
    if half is not None:
        return half
    given = sorted(parse_cards(give), key=CARDS.index)
    wanted = sorted(parse_cards(get), key=CARDS.index)
    if not given and not wanted:
        return Problem("a trade must move at least one card")
    return _both_sides(given, wanted) or (given, wanted)


def _half_typed(give: str, get: str, command: str) -> Problem | None:
    """A side left blank is a line sent too soon far more often than a gift: giving or
    asking for nothing must be said (``nothing``, ``none`` or ``-``)."""
    give, get = give.strip(), get.strip()
    if not give:
        return Problem(
            f"say what you give for {get}: e.g. {command} green for {get}, "
            f"or {command} nothing for {get}"
        )
    if not get:
        return Problem(
            f"say what you want for {give}: e.g. {command} {give} for violet, "
            f"or {command} {give} for nothing"
        )
    return None


def _both_sides(give: list[str], get: list[str]) -> Problem | None:
    """A kind given and asked for at once, which the rules refuse (RULES.md A6): said here
    with the kinds named."""
    both = sorted(set(give) & set(get), key=CARDS.index)
    if not both:
        return None
    return Problem(f"{' and '.join(both)} on both sides changes nothing: leave it out of both")


def _lacking(cards: list[str], ctx: Context) -> str | None:
    """What the player would give but does not hold, in words (None: it holds them all)."""
    hand = list(ctx.hand)
    short = sorted(card for card in set(cards) if cards.count(card) > hand.count(card))
    if not short:
        return None
    return f"you hold {cards_text(ctx.hand)}: not enough {', '.join(short)}"


def _counter(rest: str, ctx: Context) -> Result:
    """``counter GIVE for GET``: answer an offer with other terms, from the player's own side
    (it gives GIVE and gets GET); the protocol's counter is from the proposer's side."""
    if not ctx.of_kind("answer"):
        return Problem("nobody is asking you for a trade now: a counter-offer answers one")
    words = rest.split()
    lowered = [w.lower() for w in words]
    if "for" not in lowered:
        return Problem("counter GIVE for GET, e.g. counter orange for 2 green (you give orange)")
    at = lowered.index("for")
    terms = _terms(" ".join(words[:at]), " ".join(words[at + 1 :]), "counter")
    if isinstance(terms, Problem):
        return terms
    mine, wanted = terms
    lacking = _lacking(mine, ctx)
    if lacking:
        return Problem(lacking)
    trade = ctx.trade or {}
    if sorted(wanted) == sorted(trade.get("give", [])) and sorted(mine) == sorted(
        trade.get("get", [])
    ):
        return Problem("those are the offer's own terms: type accept")
    return Act({"kind": "counter", "give": wanted, "get": mine})  # (the proposer's side)


def _answer_with(accept: bool) -> Handler:
    def handler(rest: str, ctx: Context) -> Result:
        answers = ctx.of_kind("answer")
        if not answers:
            if ctx.of_kind("withdraw"):  # the player's own offer is open
                return Problem(
                    "this offer is yours: withdraw it, or complete it with a player who accepted"
                )
            return Problem("nobody is asking you for a trade now")
        for action in answers:
            if action["accept"] is accept:
                return Act(action)
        return Problem("you do not hold the cards asked for: decline, or counter GIVE for GET")

    return handler


REQUESTS = (
    ("answer", "_offer"),
    ("keep", "keep"),
    ("give_card", "give"),
    ("return_tile", "return"),
    ("complete", "complete"),
    ("withdraw", "complete"),
)
"""Legal kinds that are a request from the table, and the command whose choice shows it."""


def _answer(rest: str, ctx: Context) -> Result:
    """The dialog for whatever is asked of the player now."""
    for kind, command in (*REQUESTS, ("expand", "expand")):
        if ctx.of_kind(kind):
            return parse(command, ctx)
    return Problem("nothing is asked of you now: " + _now_hint(ctx))


def _offer(rest: str, ctx: Context) -> Result:
    answers = ctx.of_kind("answer")
    trade = ctx.trade
    if not answers or trade is None:
        return Problem("nobody is asking you for a trade now")
    proposer = who(int(trade["proposer"]), ctx.names)
    give, get = trade.get("give", []), trade.get("get", [])
    text = (
        f"{proposer} offers you {cards_text(give)} for your {cards_text(get)}.\n"
        f"You give {cards_text(get)} and get {cards_text(give)}."
    )
    options: list[tuple[str, Action | Prefill]] = []
    for action in sorted(answers, key=lambda a: not a["accept"]):
        if action["accept"]:
            options.append((f"Accept: give {cards_text(get)}, get {cards_text(give)}", action))
        else:
            options.append(("Decline", action))
    if ctx.of_kind("counter"):
        options.append(("Counter-offer... (you type: counter GIVE for GET)", Prefill("counter ")))
    if not any(action["accept"] for action in answers):
        text += "\nYou do not hold the cards asked for: decline, or counter-offer."
    return Choose(f"Trade offer from {proposer}", text, tuple(options))


def _complete(rest: str, ctx: Context) -> Result:
    completes, withdraws = ctx.of_kind("complete"), ctx.of_kind("withdraw")
    if not completes and not withdraws:
        return Problem("you have no trade offer out")
    trade = ctx.trade or {}
    answers = trade.get("answers", [])
    words = rest.split()
    if words:
        seat = resolve_player(words[0], ctx)
        for action in completes:
            if action["with"] == seat:
                return Act(action)
        answer: dict[str, Any] = next((a for a in answers if a["seat"] == seat), {})
        if answer.get("answer") == "counter":  # its terms ask for cards the player lacks
            lacking = _lacking(list(answer.get("give", [])), ctx)
            return Problem(
                f"{who(seat, ctx.names)}'s counter-offer asks you for "
                f"{cards_text(answer.get('give', []))}: {lacking or 'you cannot pay it'}"
            )
        if answer.get("answer") == "decline":
            return Problem(f"{who(seat, ctx.names)} declined your offer")
        if answer.get("answer") == "pending":
            return Problem(f"{who(seat, ctx.names)} has not answered your offer yet")
        return Problem(f"{who(seat, ctx.names)} has not accepted your offer (nor countered it)")
    words_for = {"pending": "has not answered", "accept": "accepts", "decline": "declines"}

    def said_by(answer: dict[str, Any]) -> str:
        if answer["answer"] == "counter":  # the proposer's side: you would give "give"
            return (
                f"counters: you give {cards_text(answer.get('give', []))}, get "
                f"{cards_text(answer.get('get', []))}"
            )
        return words_for.get(answer["answer"], str(answer["answer"]))

    said = "; ".join(f"{who(a['seat'], ctx.names)} {said_by(a)}" for a in answers)
    lines = [
        f"{said} (you offer {cards_text(trade.get('give', []))} for "
        f"{cards_text(trade.get('get', []))})."
    ]
    countered = {a["seat"]: a for a in answers if a["answer"] == "counter"}

    def complete_text(action: dict[str, Any]) -> str:
        partner = action["with"]
        if partner in countered:
            terms = countered[partner]
            return (
                f"Complete with {who(partner, ctx.names)} on their terms: give "
                f"{cards_text(terms.get('give', []))}, get {cards_text(terms.get('get', []))}"
            )
        return f"Complete the trade with {who(partner, ctx.names)}"

    options: list[tuple[str, Action | Prefill]] = [(complete_text(a), a) for a in completes]
    options += [("Withdraw the offer", a) for a in withdraws]
    completable = {a["with"] for a in completes}
    unpaid = [a for a in countered.values() if a["seat"] not in completable]
    for answer in unpaid:
        lines.append(
            f"You cannot pay {who(answer['seat'], ctx.names)}'s counter-offer: "
            f"{_lacking(list(answer.get('give', [])), ctx) or 'its cards are not yours'}."
        )
    if not completes and all(a["answer"] == "decline" for a in answers):
        lines.append("Everybody declined: your client takes the offer back in a moment.")
    elif not completes and any(a["answer"] == "pending" for a in answers):
        lines.append("Waiting for the answers.")
    elif not completes:
        lines.append("No answer can be completed: withdraw the offer.")
    return Choose("Your trade offer", "\n".join(lines), tuple(options))


def _give(rest: str, ctx: Context) -> Result:
    options = ctx.of_kind("give_card")
    if not options:
        return _not_now("give a card", ctx)
    words = rest.split()
    if not words:
        return Choose(
            "A card for the city owner",
            "You moved into another player's city: give its owner one card.",
            tuple((f"give {a['card']}", a) for a in options),
        )
    if len(words) > 1 or "," in words[0]:
        return Problem("give exactly one card, e.g. give " + options[0]["card"])
    card = _card(words[0].lower())
    for action in options:
        if action["card"] == card:
            return Act(action)
    return Problem(
        f"you hold no {card} card; you can give: " + ", ".join(a["card"] for a in options)
    )


def _keep(rest: str, ctx: Context) -> Result:
    options = ctx.of_kind("keep")
    if not options:
        return _not_now("keep cards", ctx)
    if not rest.strip():
        return Choose(
            "End of round: keep up to 3 cards",
            f"You hold {cards_text(ctx.hand)}; the rest are discarded.",
            tuple(
                (f"keep {cards_text(a['cards'])}" if a["cards"] else "keep none", a)
                for a in options
            ),
        )
    cards = parse_cards(rest)
    for action in options:
        if _same_cards(action["cards"], cards):
            return Act(action)
    example = "e.g. keep " + cards_short(options[0]["cards"])
    if len(cards) > 3:
        return Problem(f"keep at most 3 cards (you named {len(cards)}), {example}")
    lacking = _lacking(cards, ctx)
    if lacking:
        return Problem(f"{lacking} to keep; {example}")
    return Problem(f"keep up to 3 of the cards you hold ({cards_text(ctx.hand)}), {example}")


def _act(rest: str, ctx: Context) -> Result:
    try:
        action = json.loads(rest)
    except ValueError as exc:
        raise CommandError(f"not JSON: {exc}") from exc
    if not isinstance(action, dict) or "kind" not in action:
        raise CommandError('an action is a JSON object with a "kind"')
    return Act(action)


def _say(rest: str, ctx: Context) -> Result:
    text = rest.strip()
    if not text:
        return Problem("say what? e.g. say two green for your violet?")
    if len(text) > SAY_LIMIT:
        return Problem(f"that is {len(text)} characters; the table hears {SAY_LIMIT} at most")
    return Say(text)


SAY_LIMIT = 300
"""Characters in one line of talk (the protocol's limit)."""


def _local(name: str) -> Handler:
    def handler(rest: str, ctx: Context) -> Result:
        return Local(name, rest.strip().lower())

    return handler


_HANDLERS: dict[str, Handler] = {
    "pass": _pass,
    "expand": _expand,
    "return": _return,
    "move": _move,
    "city": _city,
    "ship": _ship,
    "bank": _bank,
    "trade": _trade,
    "accept": _answer_with(True),
    "decline": _answer_with(False),
    "answer": _answer,
    "_offer": _offer,
    "counter": _counter,
    "complete": _complete,
    "withdraw": _withdraw,
    "give": _give,
    "keep": _keep,
    "act": _act,
    **{name: _local(name) for name in _UI_COMMANDS},
    "say": _say,
}


# What the map shows while typing -------------------------------------------------


def move_costs(line: str, ctx: Context) -> tuple[str | None, dict[str, int]]:
    """While a ``move`` is being typed: (its origin if named, destination -> cheapest cost).

    >>> ctx = Context(legal=[{"kind": "move", "from": "TY", "to": "31", "pay": ["violet"]},
    ...                      {"kind": "move", "from": "27", "to": "31", "pay": ["v", "v"]}])
    >>> move_costs("move 27 ", ctx)
    ('27', {'31': 2})
    >>> move_costs("move", ctx)
    (None, {'31': 1})
    >>> move_costs("pass", ctx)
    (None, {})
    """
    words = line.split()
    if not words or words[0].lower() != "move":
        return None, {}
    moves = ctx.of_kind("move")
    origin: str | None = None
    if len(words) >= 3 or (len(words) == 2 and line.endswith(" ")):
        try:
            wanted = _port_filter(words[1])
        except CommandError:
            wanted = None
        if wanted is not None:
            from_here = [a for a in moves if _port_matches(a["from"], wanted)]
            if from_here:
                moves = from_here
                origin = from_here[0]["from"] if wanted[1] is None else wanted[1]
    costs: dict[str, int] = {}
    for action in moves:
        costs[action["to"]] = min(costs.get(action["to"], 99), len(action["pay"]))
    return origin, costs


# Completion ---------------------------------------------------------------------


def completions(text: str, ctx: Context) -> list[tuple[str, int, str]]:
    """Candidates for the word being typed: (text, start position (<= 0), meta)."""
    ends_with_space = text.endswith(" ") or not text
    words = text.split()
    current = "" if ends_with_space else words[-1]
    done = words if ends_with_space else words[:-1]
    lowered = current.lower()
    seen: set[str] = set()
    out = []
    for word, meta in _candidates(done, ctx):
        if word.lower().startswith(lowered) and word not in seen:
            seen.add(word)
            out.append((word, -len(current), meta))
    return out


Words = list[tuple[str, str]]
"""Completion candidates: (word, what it means)."""


def _candidates(done: list[str], ctx: Context) -> Words:
    """Every word that may come after the words ``done``."""
    if not done:
        return _command_words(ctx)
    command = ALIASES.get(done[0].lower(), done[0].lower())
    args = done[1:]
    if command == "help":
        return [(name, "") for name in COMMANDS] if not args else []
    lowered_args = [a.lower() for a in args]
    if "pay" in lowered_args:
        at = lowered_args.index("pay")
        if len(args) > at + 1:
            return []
        variants = sorted(_variants(command, args[:at], ctx), key=_wilds)
        return [(cards_short(a["pay"]), cards_text(a["pay"])) for a in variants]
    words = _ARGUMENT_WORDS.get(command)
    return words(args, ctx) if words is not None else []


def _command_words(ctx: Context) -> Words:
    now = []
    for action in ctx.legal:
        name = _KIND_COMMAND.get(str(action.get("kind")), "")
        if name == "accept" and not action.get("accept"):
            name = "decline"
        if name:
            now.append((name, COMMANDS[name].about[:40]))
    if ctx.of_kind("answer", "keep", "give_card", "return_tile", "complete"):
        now.append(("answer", "open the dialog"))
    return now + [(name, "") for name in _UI_COMMANDS]


def _move_words(args: list[str], ctx: Context) -> Words:
    moves = ctx.of_kind("move")
    if not args:
        origins = {a["from"]: 0 for a in moves}
        return [(o, "ship here") for o in sorted(origins, key=_order)]
    if len(args) == 1:
        try:
            wanted = _port_filter(args[0])
        except CommandError:
            return []
        costs: dict[str, int] = {}
        for a in moves:
            if _port_matches(a["from"], wanted):
                costs[a["to"]] = min(costs.get(a["to"], 99), len(a["pay"]))
        return [(t, f"cost {c}") for t, c in sorted(costs.items(), key=lambda i: _order(i[0]))]
    if len(args) == 2:
        return _payment_words(parse(f"move {args[0]} {args[1]}", ctx))
    return []


def _build_words(command: str) -> Callable[[list[str], Context], Words]:
    def words(args: list[str], ctx: Context) -> Words:
        if not args:
            spaces = {a["space"] for a in ctx.of_kind(command)}
            return [(space, "") for space in sorted(spaces, key=_order)]
        if len(args) == 1:
            return _payment_words(parse(f"{command} {args[0]}", ctx))
        return []

    return words


def _expand_words(args: list[str], ctx: Context) -> Words:
    acts = ctx.of_kind("expand")
    if not args:
        tiles: dict[str, list[str]] = {}
        for a in acts:
            tiles.setdefault(a["tile"], []).append(a["colour"])
        return [(t, "/".join(c)) for t, c in sorted(tiles.items(), key=lambda i: _order(i[0]))]
    if len(args) == 1:
        try:
            tile = resolve_space(args[0])
        except CommandError:
            return []
        return [(a["colour"], "") for a in acts if a["tile"] == tile]
    return []


def _first_word(words: Callable[[Context], Words]) -> Callable[[list[str], Context], Words]:
    """A command whose only argument is one word."""
    return lambda args, ctx: words(ctx) if not args else []


def _bank_words(args: list[str], ctx: Context) -> Words:
    picking = bool(args) and args[0].lower() in ("3:1", "take", "pick")
    if not args:
        forms: Words = []
        if ctx.of_kind("bank_pick"):
            forms.append(("3:1", "discard 3, take one from the discards"))
        if ctx.of_kind("bank_draw"):
            forms += [
                ("1", "discard 1, draw 1"),
                ("2", "discard 2, draw 2"),
                ("3", "discard 3, draw 3"),
            ]
        return forms
    if len(args) == 1 and picking:
        takes = sorted({a["take"] for a in ctx.of_kind("bank_pick")}, key=CARDS.index)
        return [(t, "in the discard pile") for t in takes]
    if len(args) == 2 and picking:
        return [("pay", "name the 3 cards")]
    return []


def _trade_words(args: list[str], ctx: Context) -> Words:
    lowered = [a.lower() for a in args]
    if "to" in lowered:
        return [(LETTERS[s], name_of(s, ctx.names)) for s in range(ctx.players) if s != ctx.seat]
    if "for" in lowered or "get" in lowered:
        return [(c, "") for c in CARDS] + [("to", "which players")]
    if args:
        return [(c, "") for c in CARDS] + [("for", "what you want")]
    return [(c, "you give") for c in CARDS]


_ARGUMENT_WORDS: dict[str, Callable[[list[str], Context], Words]] = {
    "move": _move_words,
    "city": _build_words("city"),
    "ship": _build_words("ship"),
    "expand": _expand_words,
    "return": _first_word(lambda ctx: [(a["tile"], "") for a in ctx.of_kind("return_tile")]),
    "give": _first_word(lambda ctx: [(a["card"], "") for a in ctx.of_kind("give_card")]),
    "complete": _first_word(
        lambda ctx: [
            (LETTERS[a["with"]], name_of(a["with"], ctx.names)) for a in ctx.of_kind("complete")
        ]
    ),
    "keep": _first_word(
        lambda ctx: [(cards_short(a["cards"]), cards_text(a["cards"])) for a in ctx.of_kind("keep")]
    ),
    "bank": _bank_words,
    "trade": _trade_words,
}
"""Command -> the words its arguments may be, given the words typed after it."""


def _payment_words(result: Result) -> Words:
    if isinstance(result, Act) and "pay" in result.action:
        return [("pay", f"default: {cards_text(result.action['pay'])}")]
    if isinstance(result, Choose):
        return [("pay", "several payments: name one")]
    return []


def _variants(command: str, args: Sequence[str], ctx: Context) -> list[Action]:
    """The legal actions a command's words before ``pay`` point at (for completing pay)."""
    try:
        if command == "move" and 1 <= len(args) <= 2:
            end = _port_filter(args[-1])
            start = _port_filter(args[0]) if len(args) == 2 else None
            return [
                a
                for a in ctx.of_kind("move")
                if _port_matches(a["to"], end)
                and (start is None or _port_matches(a["from"], start))
            ]
        if command in ("city", "ship") and len(args) == 1:
            space = resolve_space(args[0])
            return [a for a in ctx.of_kind(command) if a["space"] == space]
        if command == "bank" and len(args) == 2 and args[0].lower() in ("3:1", "take", "pick"):
            take = _card(args[1].lower())
            return [a for a in ctx.of_kind("bank_pick") if a["take"] == take]
    except CommandError:
        return []
    return []
