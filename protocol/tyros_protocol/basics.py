"""The wire's basic values (labels, cards, seats, names) and the strict base model.

Labels are the board's own: a space label is one of :data:`~.board.BOARD`'s spaces, a port
label one of its ports (Italy's two coasts are ``16W`` and ``16E``), so the JSON Schema
refuses ``"99"`` as the server does.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache
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


FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and signs that draw nothing: Hangul fillers, the blank Braille pattern."""
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Categories that show nothing, or break lines: controls, format (bidi, zero-width),
surrogates, private use, unassigned, line and paragraph separators."""
MARKS_PER_LETTER = 3
"""Combining marks on one letter at most (more pile up over the lines around it)."""


def _unshown(text: str) -> str | None:
    """What in ``text`` would not show as written on every screen: ``invisible`` (a
    character that draws nothing, or breaks the line), ``accents`` (too many marks on one
    letter); None: it shows."""
    marks = 0
    for ch in text:
        category = unicodedata.category(ch)
        if category in INVISIBLE or ch in FILLERS:
            return "invisible"
        marks = marks + 1 if category.startswith("M") else 0
        if marks > MARKS_PER_LETTER:
            return "accents"
    return None


def printable_name(name: str) -> str:
    """A player's name as every screen and log may show it, in its compatibility form
    (NFKC: fullwidth letters are letters): printable characters only (no controls, no bidi
    or zero-width format characters, no blank fillers), a visible letter or sign, no outer
    spaces, and no letters of another script that look like its own (a Cyrillic A in a
    Latin name).

    >>> printable_name("Ann"), printable_name("\uff21\uff2e\uff2e"), printable_name("Zo\u00eb")
    ('Ann', 'ANN', 'Zo\u00eb')
    >>> printable_name("A\u202enn")
    Traceback (most recent call last):
    ValueError: a name has printable characters only (no controls, bidi or zero-width marks)
    >>> printable_name("\u3164")
    Traceback (most recent call last):
    ValueError: a name has printable characters only (no controls, bidi or zero-width marks)
    >>> printable_name("\u0410nn")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: a name does not mix scripts with letters that look alike (here: CYRILLIC ...)
    """
    name = unicodedata.normalize("NFKC", name)
    unshown = _unshown(name)
    if unshown == "invisible":
        raise ValueError(
            "a name has printable characters only (no controls, bidi or zero-width marks)"
        )
    if unshown == "accents":
        raise ValueError(f"a name has at most {MARKS_PER_LETTER} accents on one letter")
    if not name.strip() or name != name.strip():
        raise ValueError("a name is not blank and has no spaces around it")
    if all(unicodedata.category(ch)[0] in "MZ" for ch in name):
        raise ValueError("a name has a visible letter or sign")
    imitating = imitations(name)
    if imitating:
        raise ValueError(
            "a name does not mix scripts with letters that look alike "
            f"(here: {', '.join(imitating)})"
        )
    return name


def _unicode() -> Any:
    """Unicode's confusables and scripts (confusable-homoglyphs), read when a name is first
    checked: 50 ms of data that every program importing the protocol need not load."""
    from confusable_homoglyphs import confusables  # (its alias() reads the scripts too)

    return confusables


def imitations(name: str) -> list[str]:
    """The letters of ``name`` from another script than most of its letters that look like
    letters of that script, as ``SCRIPT letter`` (Unicode's confusables and scripts).

    >>> imitations("Ann"), imitations("B0b"), imitations("\u0410\u043d\u043d\u0430")
    ([], [], [])
    >>> imitations("\u0410nn")  # doctest: +ELLIPSIS
    ['CYRILLIC ...']
    """
    scripts = Counter(
        alias for ch in name if (alias := _unicode().alias(ch)) not in ("COMMON", "INHERITED")
    )
    if len(scripts) < 2:
        return []
    main = scripts.most_common(1)[0][0]
    found: Any = _unicode().is_confusable(name, greedy=True, preferred_aliases=[main.lower()])
    return [f"{entry['alias']} {entry['character']}" for entry in found or []][:3]


def skeleton(name: str) -> str:
    """What ``name`` looks like, whatever its case: two names with one skeleton are
    confusable at one table. Unicode's skeleton of the whole name (UTS #39: each character
    as the prototype it is confusable with, in one script as across scripts: ``m`` as
    ``rn``, ``I`` as ``l``, a Cyrillic A as ``A``), case folded, then the skeleton of that.

    One key for each name, so that a seated name is compared with one string; the price:
    look-alikes chain through case (``Ian``, ``lan`` and ``Lan`` share a skeleton).

    >>> skeleton("Ann") == skeleton("ANN") == skeleton("\u0410nn") == skeleton("\u0391nn")
    True
    >>> skeleton("Scam") == skeleton("Scarn"), skeleton("Paypal") == skeleton("PayPaI")
    (True, True)
    >>> skeleton("Ann") == skeleton("Anne"), skeleton("Bob") == skeleton("Dob")
    (False, False)
    """
    looks = _prototypes(unicodedata.normalize("NFKC", name))
    return _prototypes(looks.casefold())


def _prototypes(text: str) -> str:
    """UTS #39's skeleton: NFD, each character as its prototype, NFD."""
    table = _prototype_table()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")
"""Left-to-right and right-to-left marks, which wrap right-to-left characters in
confusable-homoglyphs' data (taken from the comments of Unicode's confusables.txt)."""


@lru_cache(maxsize=1)
def _prototype_table() -> dict[str, str]:
    """Each confusable character's prototype, from confusable-homoglyphs' data: built when
    first needed (some 50 ms with the data).

    That data lists, for each line ``source -> prototype`` of confusables.txt, each side
    under the other, so the direction is lost; but the lines form stars (many sources, one
    prototype that is no line's source), and the prototype is the star's centre, or the
    side of several characters (``m -> rn``). In a star of two single characters either
    side will do to compare names: the ASCII one, else the lower code point."""
    data: dict[str, list[dict[str, str]]] = _unicode().confusables_data
    linked: dict[str, set[str]] = {}
    for key, entries in data.items():
        one = key.translate(DIRECTION_MARKS)
        for entry in entries:
            other = entry["c"].translate(DIRECTION_MARKS)
            if one != other:
                linked.setdefault(one, set()).add(other)
                linked.setdefault(other, set()).add(one)
    table: dict[str, str] = {}
    for text, others in linked.items():
        if len(text) > 1 or len(others) > 1:
            continue  # a prototype: the sequence, or the centre, of a star
        (other,) = others
        if len(other) > 1 or len(linked[other]) > 1 or _preferred(other, text):
            table[text] = other
    # A sequence's characters are prototypes, save where a two-character star chose one.
    return {ch: "".join(table.get(c, c) for c in proto) for ch, proto in table.items()}


def _preferred(one: str, other: str) -> bool:
    """Which side of a star of two single characters stands for it."""
    return (one.isascii(), -ord(one)) > (other.isascii(), -ord(other))


def printable_text(text: str) -> str:
    """A line of table talk as every screen may show it: printable characters and spaces
    only (no controls, no bidi or zero-width format characters, no line or paragraph
    separators, a few accents on a letter at most), not blank; the spaces around it are
    dropped.

    >>> printable_text("  two green for your violet? ")
    'two green for your violet?'
    >>> printable_text("a\u2028b")
    Traceback (most recent call last):
    ValueError: say it in printable characters (no controls, bidi or zero-width marks)
    """
    unshown = _unshown(text)
    if unshown == "invisible":
        raise ValueError("say it in printable characters (no controls, bidi or zero-width marks)")
    if unshown == "accents":
        raise ValueError(f"say it with at most {MARKS_PER_LETTER} accents on one letter")
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

    def wire(self) -> dict[str, Any]:
        """A model read from a frame, as the frame carried it (fields it left out stay
        out): the form the rules, the words and the bots read."""
        data: dict[str, Any] = self.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return data


def seat_only(description: str) -> Any:
    """A field only the seat it concerns receives (None, that is absent, for the others)."""
    return Field(
        default=None,
        description=f"Seat only: {description}",
        json_schema_extra={"x-seat-only": True},
    )
