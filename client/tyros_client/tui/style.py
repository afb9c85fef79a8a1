"""The client's look: colours for a colour terminal, and plain attributes for NO_COLOR.

The empires' tints follow the Okabe-Ito palette, chosen to stay apart for colour-blind
eyes, and differ in brightness too (yellow brightest, violet darkest); every cell also
names its empire by letter (O, Y, G, V) and every ship and city its player (A-D), so that
nothing depends on telling colours apart."""

from __future__ import annotations

import os

from prompt_toolkit.styles import Style

from .state import LineKind

_COLOUR_STYLE: dict[str, str] = {
    "space": "bg:#303030 #d0d0d0",
    "empire.orange": "bg:#b35900 #ffffff",
    "empire.yellow": "bg:#d7c000 #000000",
    "empire.green": "bg:#007a5e #ffffff",
    "empire.violet": "bg:#7a2f7a #ffffff",
    "number": "bold",
    "tile": "bold reverse",
    "origin": "underline",
    "tag": "bold",
    "city": "bold",
    "coast": "bold",
    "cost": "bold bg:#000000 #ffff5f",
    "serpent": "bg:#00005f #5f87ff",
    "desert": "bg:#3a3a1c #af875f",
    "link": "bold #5fafff",
    "player.0": "bg:#d70000 #ffffff bold",
    "player.1": "bg:#005fff #ffffff bold",
    "player.2": "bg:#e4e4e4 #000000 bold",
    "player.3": "bg:#00afaf #000000 bold",
    "card.orange": "#e69f00 bold",
    "card.yellow": "#f0e442 bold",
    "card.green": "#00b887 bold",
    "card.violet": "#cc79a7 bold",
    "card.wild": "#d0d0d0 bold",
    "log.round": "#87afff bold",
    "log.mine": "bold",
    "log.error": "#ff5f5f",
    "log.info": "#87d7af",
    "log.chat": "#d7afff",
    "message.error": "#ff5f5f bold",
    "message.info": "#87d7af",
    "message.turn": "#ffd700 bold",
    "title": "reverse",
    "turn": "#ffd700 bold",
    "dim": "#8a8a8a",
    "choice.selected": "reverse bold",
    "sheet.head": "bold",
    "sheet.winner": "#ffd700 bold",
    "prompt": "bold",
    "frame.label": "bold",
    "request.title": "bg:#ffd700 #000000 bold",
    "log.summary": "#ffd700",
    "log.points": "#ffaf5f",
    "request.how": "#ffd700",
}
_PLAIN_STYLE: dict[str, str] = {
    "number": "bold",
    "tile": "bold reverse",
    "origin": "underline",
    "tag": "bold",
    "city": "bold",
    "coast": "bold",
    "cost": "bold underline",
    "link": "bold",
    "player.0": "reverse",
    "player.1": "reverse",
    "player.2": "reverse",
    "player.3": "reverse",
    "log.round": "bold",
    "log.mine": "bold",
    "message.error": "bold",
    "message.turn": "bold",
    "title": "reverse",
    "turn": "bold",
    "choice.selected": "reverse",
    "sheet.head": "bold",
    "sheet.winner": "bold",
    "prompt": "bold",
    "frame.label": "bold",
    "request.title": "reverse",
    "request.how": "bold",
    "log.summary": "bold",
}


LINE_STYLES: dict[LineKind, str] = {
    LineKind.EVENT: "class:log.event",
    LineKind.ROUND: "class:log.event class:log.round",
    LineKind.MINE: "class:log.event class:log.mine",
    LineKind.POINTS: "class:log.event class:log.points",
    LineKind.SUMMARY: "class:log.summary",
    LineKind.INFO: "class:log.info",
    LineKind.ERROR: "class:log.error",
    LineKind.CHAT: "class:log.chat",
}
"""How each kind of log line looks."""


def no_color() -> bool:
    """Whether the user asked for no colour (https://no-color.org)."""
    return bool(os.environ.get("NO_COLOR"))


def make_style(colour: bool) -> Style:
    return Style.from_dict(_COLOUR_STYLE if colour else _PLAIN_STYLE)
