"""Colours, card kinds and the name <-> count helpers of tyros_protocol.cards."""

from __future__ import annotations

import itertools
from typing import get_args

import pytest
from tyros_protocol.basics import CardName, ColourName
from tyros_protocol.cards import (
    CARD_KINDS,
    CARD_NAMES,
    CARDS_PER_COLOUR,
    COLOUR_NAMES,
    COLOURS,
    DECK,
    DECK_SIZE,
    GREEN,
    NO_CARDS,
    ORANGE,
    VIOLET,
    WILD,
    WILD_CARDS,
    YELLOW,
    CardError,
    counts_from_names,
    names_from_counts,
    parse_card,
    parse_colour,
)


def test_the_deck_is_the_rulebooks() -> None:
    # "14 commerce cards in each of the four empire colours ... also 4 grey-bordered cards,
    # which are wild": 60 in all.
    assert CARDS_PER_COLOUR == 14 and WILD_CARDS == 4
    assert DECK == (14, 14, 14, 14, 4)
    assert DECK_SIZE == 60
    assert NO_CARDS == (0, 0, 0, 0, 0)


def test_colours_in_tie_break_order() -> None:
    # Rulebook: "the following order of rank applies: Orange, Yellow, Green, Violet".
    assert (ORANGE, YELLOW, GREEN, VIOLET, WILD) == (0, 1, 2, 3, 4)
    assert COLOURS == (0, 1, 2, 3)
    assert CARD_KINDS == (0, 1, 2, 3, 4)
    assert COLOUR_NAMES == ("orange", "yellow", "green", "violet")
    assert CARD_NAMES == ("orange", "yellow", "green", "violet", "wild")


def test_the_wires_card_and_colour_types_name_the_same_cards() -> None:
    # A Literal is written out for the type checker: it cannot take its values from a tuple.
    assert get_args(CardName) == CARD_NAMES and get_args(ColourName) == COLOUR_NAMES


@pytest.mark.parametrize(
    ("name", "colour"),
    [
        ("orange", ORANGE),
        ("o", ORANGE),
        ("Yellow", YELLOW),
        (" Y ", YELLOW),
        ("GREEN", GREEN),
        ("g", GREEN),
        ("violet", VIOLET),
        ("v", VIOLET),
    ],
)
def test_parse_colour(name: str, colour: int) -> None:
    assert parse_colour(name) == colour


@pytest.mark.parametrize("name", ["wild", "w", "grey", "red", "", "or", "oranges", "0"])
def test_parse_colour_rejects_non_colours(name: str) -> None:
    # A wild card is not an empire colour: no empire can be wild.
    with pytest.raises(CardError, match="unknown colour"):
        parse_colour(name)


@pytest.mark.parametrize(
    ("name", "card"),
    [
        ("orange", ORANGE),
        ("O", ORANGE),
        ("yellow", YELLOW),
        ("green", GREEN),
        ("violet", VIOLET),
        ("wild", WILD),
        ("w", WILD),
        (" Wild ", WILD),
    ],
)
def test_parse_card(name: str, card: int) -> None:
    assert parse_card(name) == card


@pytest.mark.parametrize("name", ["grey", "joker", "", "4", "copper"])
def test_parse_card_rejects_unknown_cards(name: str) -> None:
    with pytest.raises(CardError, match="unknown card"):
        parse_card(name)


def test_card_error_is_a_value_error() -> None:
    assert issubclass(CardError, ValueError)


def test_counts_from_names() -> None:
    assert counts_from_names([]) == (0, 0, 0, 0, 0)
    assert counts_from_names(["green", "wild", "green"]) == (0, 0, 2, 0, 1)
    assert counts_from_names(["v", "O", "y", "w", "g", "violet"]) == (1, 1, 1, 2, 1)
    assert counts_from_names(iter(["orange"] * 14)) == (14, 0, 0, 0, 0)
    with pytest.raises(CardError):
        counts_from_names(["orange", "purple"])


def test_names_from_counts_lists_cards_in_kind_order() -> None:
    assert names_from_counts((0, 0, 0, 0, 0)) == []
    assert names_from_counts((1, 0, 0, 0, 2)) == ["orange", "wild", "wild"]
    assert names_from_counts((0, 2, 0, 1, 0)) == ["yellow", "yellow", "violet"]
    assert len(names_from_counts(DECK)) == DECK_SIZE


def test_names_and_counts_round_trip() -> None:
    for counts in itertools.product(range(3), repeat=5):
        names = names_from_counts(counts)
        assert len(names) == sum(counts)
        assert counts_from_names(names) == counts
        assert counts_from_names(reversed(names)) == counts  # order does not matter
