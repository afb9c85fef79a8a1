"""Build engine states directly, for scenario tests.

Every state built here conserves the 60 cards, the 32 tiles and each player's
10 ships and 10 cities, so that the invariant checker accepts it.
"""

from __future__ import annotations

import random

import pytest
from tyros_protocol.board import BOARD
from tyros_protocol.cards import DECK, CardCounts, counts_from_names
from tyros_rules import Action, IllegalActionError, Reason, legal_actions, push
from tyros_rules.state import (
    GameState,
    Options,
    Phase,
    blank_state,
)


def cards(text: str) -> CardCounts:
    """Card counts from short names: ``cards("o o w")`` is two orange and a wild."""
    return counts_from_names(text.split())


def space(label: str) -> int:
    return BOARD.parse_space(label)


def port(label: str) -> int:
    return BOARD.parse_port(label)


def make_state(
    players: int = 4,
    *,
    phase: Phase = Phase.ACTIONS,
    current: int = 0,
    starting_seat: int = 0,
    round_number: int = 1,
    chips: dict[str, str] | None = None,
    cities: dict[str, int] | None = None,
    ships: dict[str, dict[int, int]] | None = None,
    hands: dict[int, str] | None = None,
    tiles: dict[int, list[str]] | None = None,
    tile_pile: list[str] | None = None,
    discard: str = "",
    draw_pile: str | None = None,
    seed: int = 0,
) -> GameState:
    """A state in the middle of a game.

    - ``chips``: space label -> colour letter/name ("o", "yellow", ...).
    - ``ships``: port label -> {seat: count}; default two ships per seat in Tyros.
    - ``hands``: seat -> card names (see :func:`cards`).
    - ``tiles``: seat -> tile labels; default four unplayed tiles each.
    - ``tile_pile``: tile labels, top last; default the unplayed tiles nobody holds.
    - ``draw_pile``: card names, top last; default the rest of the deck, shuffled.
    """
    from tyros_protocol.cards import parse_colour

    state = blank_state(Options(players=players, seed=seed))
    rng = random.Random(seed)
    state.phase = phase
    state.current = current
    state.starting_seat = starting_seat
    state.round = round_number
    state.log = []

    for label, colour in (chips or {}).items():
        state.chips[space(label)] = parse_colour(colour)
    for label, owner in (cities or {}).items():
        state.cities[space(label)] = owner
        state.city_supply[owner] -= 1
    if ships is None:
        ships = {"TY": {seat: 2 for seat in range(players)}}
    for label, per_seat in ships.items():
        for seat, count in per_seat.items():
            state.add_ships(port(label), seat, count)
            state.ship_supply[seat] -= count

    held = [0, 0, 0, 0, 0]
    for seat, text in (hands or {}).items():
        state.hands[seat] = cards(text)
    for hand in state.hands:
        for kind, n in enumerate(hand):
            held[kind] += n
    state.discard = cards(discard)
    for kind, n in enumerate(state.discard):
        held[kind] += n
    rest = [kind for kind, total in enumerate(DECK) for _ in range(total - held[kind])]
    if draw_pile is None:
        rng.shuffle(rest)
        state.draw_pile = rest
    else:
        state.draw_pile = [counts_from_names([name]).index(1) for name in draw_pile.split()]
        in_pile = sorted(state.draw_pile)
        assert len(in_pile) <= len(rest), "more cards than the deck holds"
        # The remaining cards are out of play only in the sense of tests: keep them in the
        # discard pile so that 60 cards stay accounted for.
        leftover = list(rest)
        for kind in in_pile:
            leftover.remove(kind)
        extra = [0, 0, 0, 0, 0]
        for kind in leftover:
            extra[kind] += 1
        state.discard = tuple(a + b for a, b in zip(state.discard, extra, strict=True))  # type: ignore[assignment]

    played = [s for s in range(1, BOARD.space_count) if state.chips[s] >= 0]
    state.removed_tiles = played
    free = [s for s in range(1, BOARD.space_count) if s not in played]
    if tiles is None:
        rng.shuffle(free)
        tiles = {
            seat: [BOARD.space_label(t) for t in free[4 * seat : 4 * seat + 4]]
            for seat in range(players)
        }
    for seat in range(players):
        state.tiles[seat] = tuple(sorted(space(t) for t in tiles.get(seat, [])))
    in_hands = {t for seat_tiles in state.tiles for t in seat_tiles}
    if tile_pile is None:
        state.tile_pile = [t for t in free if t not in in_hands]
    else:
        state.tile_pile = [space(t) for t in tile_pile]
        state.removed_tiles += [t for t in free if t not in in_hands and t not in state.tile_pile]
    return state


def legal(state: GameState, seat: int) -> list[Action]:
    """``legal_actions``, checked to list each action once (RULES.md A7)."""
    listed = legal_actions(state, seat)
    assert len(set(listed)) == len(listed), "an action is listed twice"
    return listed


def assert_illegal(
    state: GameState, seat: int, action: Action, reason: Reason | None = None
) -> None:
    """Pushing ``action`` is refused (with ``reason``, if given) and changes nothing."""
    before = state.fingerprint()
    with pytest.raises(IllegalActionError) as caught:
        push(state, seat, action)
    if reason is not None:
        assert caught.value.reason == reason
    assert state.fingerprint() == before
