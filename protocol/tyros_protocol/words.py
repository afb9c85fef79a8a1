"""People's words for the protocol's actions and events: the catalogue's (:mod:`.catalogue`,
which the server also serves to the page as ``/words.json``), rendered here for Python and by
the page's ``words.js`` for the browser, so that both say the same.

A template is text with ``{field|format}`` placeholders and ``[optional parts]``, said only
when every field in them is there; an entry may be a list of variants, the first whose
``is`` (field values) and ``has`` (fields present) hold being said.

>>> cards_text(["green", "wild", "green"])
'green x2, wild'
>>> describe_action({"kind": "move", "from": "TY", "to": "31", "pay": ["violet"]})
'move TY -> 31 paying violet'
>>> describe_event({"type": "cards_drawn", "seat": 1, "count": 1}, ["Ann", "Bob"], None)
'B Bob draws 1 card'
>>> describe_event({"type": "cards_drawn", "seat": 1, "count": 2, "cards": ["green", "wild"]},
...                ["Ann", "Bob"], 1)
'B Bob draws 2 cards: green, wild'
>>> who(1, ["Ann", "Bob"])
'B Bob'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CARD_NAMES
from .catalogue import ACTIONS, EVENTS, Template, catalogue
from .messages import BOT_LEVELS, BotLevel
from .options import (
    MAX_DECISION,
    MAX_RESERVE,
    MAX_TRADE_SECONDS,
    MIN_DECISION,
    MIN_RESERVE,
    MIN_TRADE_SECONDS,
)

CARDS: tuple[str, ...] = CARD_NAMES
"""Card kinds in display order (the protocol's order)."""
LETTERS = "ABCD"
"""Each seat's letter, from the first seat on."""

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


def cards_text(cards: Iterable[str]) -> str:
    """``['green', 'green', 'wild']`` as ``'green x2, wild'`` (``'nothing'`` if empty)."""
    counted = card_counts(cards)
    parts = [kind if n == 1 else f"{kind} x{n}" for kind, n in counted.items() if n]
    return ", ".join(parts) if parts else "nothing"


@dataclass(frozen=True, slots=True)
class Context:
    """What words need beyond the item: the players' names, the seat reading them, and the
    event an action belongs to."""

    names: Names = ()
    viewer: int | None = None
    event: Mapping[str, Any] | None = None


def _who(value: Any, ctx: Context) -> str:
    return who(value, ctx.names) if isinstance(value, int) else ""


def _by(value: Any, ctx: Context) -> str:
    said: dict[str, str] = catalogue()["by"]
    yours = ctx.event is not None and ctx.viewer is not None and ctx.event.get("seat") == ctx.viewer
    return said.get(f"{value} yours" if yours else str(value), said.get(str(value), ""))


def _action(value: Any, ctx: Context) -> str:
    action = dict(value or {})
    event = ctx.event or {}
    if action.get("kind") == "give_card" and "to" not in action and "to" in event:
        action["to"] = event["to"]  # (the receiver is the event's for its two seats)
    return describe_action(action, ctx.names)


def _coast(value: Any, ctx: Context) -> str:
    coast = str(value or "")
    return f" (the ship on {coast} goes home)" if coast[-1:] in ("W", "E") else ""


def _winners(value: Any, ctx: Context) -> str:
    winners = [who(s, ctx.names) for s in (value or {}).get("winners", [])]
    return " and ".join(winners) or "nobody"


def _article(value: Any, ctx: Context) -> str:
    return f"{'an' if str(value)[:1] in 'aeiou' else 'a'} {value}"


Format = Callable[[Any, Context], str]

FORMATS: dict[str, Format] = {
    "who": _who,
    "whos": lambda value, ctx: ", ".join(_who(s, ctx) for s in value or []),
    "cards": lambda value, ctx: cards_text(value or []),
    "count": lambda value, ctx: str(len(value or [])),
    "list": lambda value, ctx: ", ".join(str(v) for v in value or []),
    "article": _article,
    "action": _action,
    "by": _by,
    "coast": _coast,
    "winners": _winners,
}
"""The formats a placeholder may name (``words.js`` has the same, by the same names)."""

_PART = re.compile(r"\[([^\]]*)\]")
_FIELD = re.compile(r"\{([a-z_]+)(?:\|([a-z]+)(?::([a-z]+))?)?\}")


def _field(
    match: re.Match[str], item: Mapping[str, Any], ctx: Context, formats: Mapping[str, Format]
) -> str:
    name, form, word = match.groups()
    value = item.get(name)
    if form == "plural":
        return f"{value} {word}{'' if value == 1 else 's'}"
    if form is None:
        return "" if value is None else str(value)
    if word is not None and not value:  # (another format's word says an empty value)
        return str(word)
    return formats[form](value, ctx)


def render(
    template: Template,
    item: Mapping[str, Any],
    ctx: Context,
    formats: Mapping[str, Format] = FORMATS,
) -> str:
    """``template`` said of ``item`` (an action or an event in the protocol's JSON), its
    placeholders in ``formats``."""
    text: str = template if isinstance(template, str) else ""
    if isinstance(template, list):
        text = next(
            variant["text"]
            for variant in template
            if all(item.get(k) == v for k, v in variant.get("is", {}).items())
            and all(item.get(k) is not None for k in variant.get("has", []))
        )

    def part(match: re.Match[str]) -> str:
        fields = [m.group(1) for m in _FIELD.finditer(match.group(1))]
        return match.group(1) if all(item.get(f) is not None for f in fields) else ""

    text = _PART.sub(part, text)
    return _FIELD.sub(lambda m: _field(m, item, ctx, formats), text)


def describe_action(action: Mapping[str, Any], names: Names = ()) -> str:
    """One line for an action in the protocol's JSON form."""
    entry = ACTIONS.get(str(action.get("kind")))
    return str(action.get("kind")) if entry is None else render(entry.words, action, Context(names))


def describe_target(action: Mapping[str, Any], names: Names = ()) -> str:
    """What a paying action does, without its payment ("move TY -> 23", "bank draw").

    >>> describe_target({"kind": "bank_pick", "take": "violet", "pay": ["orange"] * 3})
    'bank pick violet'
    """
    entry = ACTIONS[str(action.get("kind"))]
    template = entry.words if entry.target is None else entry.target
    return render(template, action, Context(names))


def answer_words(answer: Mapping[str, Any]) -> str:
    """An answer to one's offer (the view's ``trade.answers``) as its proposer reads it.

    >>> answer_words({"seat": 2, "answer": "counter", "give": ["green"], "get": ["wild"]})
    'counters, you give green for wild'
    """
    said: dict[str, Template] = catalogue()["trade"]["answers"]
    template = said.get(str(answer.get("answer")))
    return str(answer.get("answer")) if template is None else render(template, answer, Context())


def completing_words(answer: Mapping[str, Any], give: Sequence[str], get: Sequence[str]) -> str:
    """The terms completing a trade with the seat of ``answer`` would trade on, from the
    proposer's side: ``give`` and ``get`` (a counter-offer's own, or the offer's).

    >>> completing_words({"answer": "accept"}, ["orange"], ["green", "green"])
    'they accepted, you give orange for green x2'
    """
    item = {**answer, "give": list(give), "get": list(get)}
    return render(catalogue()["trade"]["completing"], item, Context())


def describe_event(event: Mapping[str, Any], names: Names, viewer: int | None) -> str | None:
    """One log line for an event as this seat sees it (None: a type with no words)."""
    entry = EVENTS.get(str(event.get("type")))
    if entry is None:
        return None
    return render(entry.words, event, Context(names, viewer, event))


def phase_name(phase: str) -> str:
    """A phase's name, as a heading says it ("card actions"); an unknown one as it is."""
    entry = catalogue()["phases"].get(phase)
    return phase if entry is None else str(entry["name"])


def phase_during(phase: str) -> str:
    """The words for the time a phase lasts ("the card actions")."""
    entry = catalogue()["phases"].get(phase)
    return phase if entry is None else str(entry["during"])


LEVEL_WORDS: dict[BotLevel, str] = {
    "easy": "a beginner's match",
    "normal": "greedy, trades",
    "hard": "thinks ahead",
    "expert": "thinks longer (half a second)",
}
"""Each level of the server's own bots, as a person choosing one reads it (the page's
choice, ``tyros-server --bot-level``'s help); what each was measured to be is
``tyros-play --level``'s help."""


def page_catalogue() -> dict[str, Any]:
    """What the page's ``words.js`` speaks from, served as ``/words.json``: the catalogue,
    and the protocol's values the page says or checks too (``letters``, ``cards``, and the
    ``clock``'s [least, most] seconds a decision and a reserve, those to answer an offer,
    and the levels of the server's own bots with their words), so it never repeats them.

    >>> page = page_catalogue()
    >>> page["letters"], page["cards"][-1], page["clock"]["decision"]
    ('ABCD', 'wild', [5, 3600])
    """
    return {
        **catalogue(),
        "letters": LETTERS,
        "cards": list(CARDS),
        "clock": {"decision": [MIN_DECISION, MAX_DECISION], "reserve": [MIN_RESERVE, MAX_RESERVE]},
        "trade_seconds": [MIN_TRADE_SECONDS, MAX_TRADE_SECONDS],
        "levels": [[level, LEVEL_WORDS[level]] for level in BOT_LEVELS],
    }


__all__ = [
    "CARDS",
    "FORMATS",
    "LETTERS",
    "LEVEL_WORDS",
    "Context",
    "Format",
    "Template",
    "answer_words",
    "card_counts",
    "cards_text",
    "catalogue",
    "completing_words",
    "describe_action",
    "describe_event",
    "describe_target",
    "letter",
    "name_of",
    "page_catalogue",
    "phase_during",
    "phase_name",
    "render",
    "who",
]
