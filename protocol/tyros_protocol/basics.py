"""The wire's basic values (labels, cards, seats, names) and the strict base model.

Labels are the board's own: a space label is one of :data:`~.board.BOARD`'s spaces, a port
label one of its ports (Italy's two coasts are ``16W`` and ``16E``), so the JSON Schema
refuses ``"99"`` as the server does.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from .board import BOARD

_SPACES = frozenset(BOARD.space_labels)
_PORTS = frozenset(BOARD.port_labels)


def _space_label(value: str) -> str:
    if value not in _SPACES:
        raise ValueError(f"{value[:8]!r} is not a space of the board (TY, 1 to 32)")
    return value


def _port_label(value: str) -> str:
    if value not in _PORTS:
        raise ValueError(f"{value[:8]!r} is not a port of the board (TY, 1 to 32; 16W, 16E)")
    return value


CardName = Literal["orange", "yellow", "green", "violet", "wild"]
ColourName = Literal["orange", "yellow", "green", "violet"]
# The board's labels: an enum in the schema, and a short error for anything else.
SpaceLabel = Annotated[
    str,
    AfterValidator(_space_label),
    Field(max_length=2, json_schema_extra={"enum": list(BOARD.space_labels)}),
]
"""A space of the board: ``TY`` (Tyros) or ``1`` to ``32``."""
PortLabel = Annotated[
    str,
    AfterValidator(_port_label),
    Field(max_length=3, json_schema_extra={"enum": list(BOARD.port_labels)}),
]
"""Where a ship stands: a space's label, but ``16W`` or ``16E`` for Italy's two coasts."""
Cards = Annotated[list[CardName], Field(max_length=60)]
SeatNumber = Annotated[int, Field(ge=0, le=3)]
MessageId = Annotated[int, Field(ge=0, le=2**53)]
TableName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,32}$")]


def printable_name(name: str) -> str:
    """A player's name as every screen and log may show it: printable characters only (no
    controls, no bidi or zero-width format characters), not blank, no outer spaces.

    >>> printable_name("Ann")
    'Ann'
    >>> printable_name("A\u202enn")
    Traceback (most recent call last):
    ValueError: a name has printable characters only (no controls, bidi or zero-width marks)
    """
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise ValueError(
            "a name has printable characters only (no controls, bidi or zero-width marks)"
        )
    if not name.strip() or name != name.strip():
        raise ValueError("a name is not blank and has no spaces around it")
    return name


def printable_text(text: str) -> str:
    """A line of table talk as every screen may show it: printable characters and spaces
    only (no controls, no bidi or zero-width format characters), not blank; the spaces
    around it are dropped.

    >>> printable_text("  two green for your violet? ")
    'two green for your violet?'
    """
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text):
        raise ValueError("say it in printable characters (no controls, bidi or zero-width marks)")
    if not text.strip():
        raise ValueError("say something: the text is blank")
    return text.strip()


ChatText = Annotated[str, Field(min_length=1, max_length=300), AfterValidator(printable_text)]


PlayerName = Annotated[
    str,
    Field(min_length=1, max_length=32, pattern=r"^[^\x00-\x1f\x7f]+$"),
    AfterValidator(printable_name),
]


class Model(BaseModel):
    # Strict: the wire must match the schema exactly (no "7" for 7, no Python field names).
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        validate_by_alias=True,
        validate_by_name=False,
        use_attribute_docstrings=True,  # the fields' docstrings describe them in the schema
    )


def seat_only(description: str) -> Any:
    """A field only the seat it concerns receives (None, that is absent, for the others)."""
    return Field(
        default=None,
        description=f"Seat only: {description}",
        json_schema_extra={"x-seat-only": True},
    )
