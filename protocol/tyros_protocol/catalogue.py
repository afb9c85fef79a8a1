"""The catalogue of every action kind and event type (``data/words.json``): one entry each,
keyed by its name on the wire, saying its fields, which of them are seat-only, its words for
people and, for an action, the command line that makes it.

The rules derive their description of actions (``tyros_rules.actions.SPECS``), the view
gate's allow-lists and the engine's log entries from it; :mod:`.words` and the page's
``words.js`` say its words.

>>> ACTIONS["bank_pick"].layout, ACTIONS["bank_pick"].wire
(('take', 'pay'), ('pay', 'take'))
>>> [(f.name, f.type, f.seat_only) for f in ACTIONS["give_card"].fields]
[('card', 'card', True)]
>>> EVENTS["tile_drawn"].public, EVENTS["tile_drawn"].seat_only
(('seat', 'count'), ('tile',))
>>> event("tile_drawn", 2, 1, "23")
{'type': 'tile_drawn', 'seat': 2, 'count': 1, 'tile': '23'}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

Template = str | list[dict[str, Any]]
"""A text with ``{field|format}`` placeholders, or variants of it (see :mod:`.words`)."""


@cache
def catalogue() -> dict[str, Any]:
    """The catalogue as JSON: ``actions`` (kind -> entry), ``events`` (type -> entry),
    ``by`` (who decided an action, when not its seat) and ``phases``."""
    data = resources.files("tyros_protocol") / "data" / "words.json"
    loaded: dict[str, Any] = json.loads(data.read_text("utf-8"))
    return loaded


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    """Its name in the JSON form."""
    type: str
    """What an action's field holds (``space``, ``cards``, ...); ``""`` for an event's."""
    seat_only: bool
    """Shown only to the seat it concerns (and, in an action, its counterpart)."""


def _field(written: str) -> Field:
    """``"name:type"`` or ``"name"``, ending in ``"!"`` when seat-only."""
    name, _, type_ = written.rstrip("!").partition(":")
    return Field(name, type_, written.endswith("!"))


@dataclass(frozen=True, slots=True)
class ActionEntry:
    kind: str
    """Its ``kind`` on the wire."""
    fields: tuple[Field, ...]
    """In the order of the engine's tuple."""
    wire: tuple[str, ...]
    """The fields' names in the order of the JSON object."""
    words: Template
    command: Template
    """The terminal client's command line that makes it."""
    yours: Template | None
    """Its words from the acting seat's side, where they differ from :attr:`words`."""
    target: Template | None
    """What it does without its payment, for the kinds that pay."""
    trade: bool
    """Talk of a trade: an offer, an answer, completing or withdrawing it."""

    @property
    def layout(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)


@dataclass(frozen=True, slots=True)
class EventEntry:
    type: str
    """Its ``type`` on the wire."""
    fields: tuple[Field, ...]
    """In the order of the JSON object, as the engine's log writes it."""
    words: Template

    @property
    def public(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if not f.seat_only)

    @property
    def seat_only(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.seat_only)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)


def _action(kind: str, entry: dict[str, Any]) -> ActionEntry:
    fields = tuple(_field(f) for f in entry["fields"])
    wire = tuple(entry.get("wire", [f.name for f in fields]))
    return ActionEntry(
        kind,
        fields,
        wire,
        entry["words"],
        entry["command"],
        entry.get("yours"),
        entry.get("target"),
        bool(entry.get("trade")),
    )


def _event(type_: str, entry: dict[str, Any]) -> EventEntry:
    return EventEntry(type_, tuple(_field(f) for f in entry["fields"]), entry["words"])


ACTIONS: dict[str, ActionEntry] = {
    kind: _action(kind, entry) for kind, entry in catalogue()["actions"].items()
}
"""Every action kind's entry, by its ``kind``."""
EVENTS: dict[str, EventEntry] = {
    type_: _event(type_, entry) for type_, entry in catalogue()["events"].items()
}
"""Every event type's entry, by its ``type``."""
TRADE_TALK = frozenset(kind for kind, entry in ACTIONS.items() if entry.trade)
"""The kinds of action that are talk of a trade."""

_NAMES: dict[str, tuple[str, ...]] = {type_: entry.names for type_, entry in EVENTS.items()}


def event(type_: str, *values: Any) -> dict[str, Any]:
    """An event of ``type_`` with its fields' ``values`` in the catalogue's order: the
    engine's log entries are built here, so that their fields are the catalogue's."""
    out: dict[str, Any] = {"type": type_}
    out.update(zip(_NAMES[type_], values, strict=True))
    return out


__all__ = [
    "ACTIONS",
    "EVENTS",
    "TRADE_TALK",
    "ActionEntry",
    "EventEntry",
    "Field",
    "Template",
    "catalogue",
    "event",
]
