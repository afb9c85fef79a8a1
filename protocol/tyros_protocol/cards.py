"""Empire colours and commerce cards.

A hand or a payment is a *card count*: a 5-tuple of how many orange, yellow,
green, violet and wild cards it holds. On the wire a payment is a list of
card names.

>>> counts_from_names(["green", "wild", "green"])
(0, 0, 2, 0, 1)
>>> names_from_counts((1, 0, 0, 0, 2))
['orange', 'wild', 'wild']
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

Colour = int
"""An empire colour: 0 orange, 1 yellow, 2 green, 3 violet."""
Card = int
"""A commerce card kind: an empire colour, or 4 for a wild card."""
CardCounts = tuple[int, int, int, int, int]

ORANGE: Colour = 0
YELLOW: Colour = 1
GREEN: Colour = 2
VIOLET: Colour = 3
WILD: Card = 4

COLOURS: tuple[Colour, ...] = (ORANGE, YELLOW, GREEN, VIOLET)
"""Empire colours in tie-break order (orange ranks first)."""
CARD_KINDS: tuple[Card, ...] = (ORANGE, YELLOW, GREEN, VIOLET, WILD)
COLOUR_NAMES: tuple[str, ...] = ("orange", "yellow", "green", "violet")
CARD_NAMES: tuple[str, ...] = (*COLOUR_NAMES, "wild")

CARDS_PER_COLOUR = 14
WILD_CARDS = 4
DECK: CardCounts = (CARDS_PER_COLOUR,) * 4 + (WILD_CARDS,)
DECK_SIZE = sum(DECK)
NO_CARDS: CardCounts = (0, 0, 0, 0, 0)


class CardError(ValueError):
    """A card or colour name that does not exist."""


def parse_colour(name: str) -> Colour:
    """An empire colour from its name or first letter.

    >>> parse_colour("Violet"), parse_colour("g")
    (3, 2)
    """
    key = name.strip().lower()
    for colour, known in enumerate(COLOUR_NAMES):
        if key in (known, known[0]):
            return colour
    raise CardError(f"unknown colour {name!r}")


def parse_card(name: str) -> Card:
    """A card kind from its name or first letter ('w' or 'wild' for wild)."""
    key = name.strip().lower()
    for card, known in enumerate(CARD_NAMES):
        if key in (known, known[0]):
            return card
    raise CardError(f"unknown card {name!r}")


def counts_from_names(names: Iterable[str]) -> CardCounts:
    counts = [0, 0, 0, 0, 0]
    for name in names:
        counts[parse_card(name)] += 1
    return tuple(counts)  # type: ignore[return-value]


def names_from_counts(counts: Iterable[int]) -> list[str]:
    return list(_names(tuple(counts)))


@lru_cache(maxsize=1 << 12)
def _names(counts: tuple[int, ...]) -> tuple[str, ...]:
    # Cached: the engine names the cards of every deal, draw, trade and discard it logs.
    return tuple(CARD_NAMES[card] for card, n in enumerate(counts) for _ in range(n))
