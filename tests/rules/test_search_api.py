"""The engine's API for search: states rebuilt from a view (the inverse of ``view``), copies
that cover every slot of the state, and the grouped enumerations the bots use."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from tyros_rules import (
    K_BANK_DRAW,
    K_BANK_PICK,
    PAY_AT,
    UNPAID_AT,
    Action,
    GameState,
    Kind,
    Options,
    Phase,
    bank_draw,
    bank_pick,
    bank_trades,
    deal_unseen,
    legal_actions,
    new_game,
    push_unchecked,
    seats_to_act,
    state_from_view,
    unseen,
    view,
)
from tyros_rules.state import FIELDS, blank_state

GAMES = [(3, "first", 11), (4, "first", 12), (3, "variable", 13), (4, "variable", 14)]


def wire(data: dict[str, Any]) -> dict[str, Any]:
    return json.loads(json.dumps(data))  # type: ignore[no-any-return]


def states(players: int, setup: str, seed: int, every: int = 7) -> Iterator[GameState]:
    """Every ``every``-th state of a seeded random game, the rarer phases always."""
    state = new_game(Options(players=players, setup=setup, seed=seed))
    rng = random.Random(seed)
    step = 0
    while state.phase != Phase.OVER:
        if step % every == 0 or state.phase != Phase.ACTIONS:
            yield state
        seat = seats_to_act(state)[0]
        push_unchecked(state, seat, lively_choice(state, legal_actions(state, seat), rng))
        step += 1
    yield state


def lively_choice(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    """A random action that builds cities, moves and passes often enough for games to keep
    3 cards and to visit cities (the owner's card)."""
    if state.phase == Phase.ACTIONS:
        cities = [a for a in legal if a[0] == Kind.CITY]
        if cities and rng.random() < 0.8:
            return rng.choice(cities)
        if rng.random() < 0.25:
            return (Kind.PASS,)
        moves = [a for a in legal if a[0] == Kind.MOVE]
        if moves and rng.random() < 0.6:
            return rng.choice(moves)
    return rng.choice(legal)


# state_from_view ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "setup", "seed"), GAMES)
def test_a_view_and_what_it_hides_give_back_the_state(players: int, setup: str, seed: int) -> None:
    phases = set()
    for state in states(players, setup, seed):
        phases.add(state.phase)
        for viewer in [None, *range(players)]:
            seen = wire(view(state, viewer))
            rebuilt = state_from_view(seen, unseen(state, viewer))
            assert view(rebuilt, viewer) == seen
            assert rebuilt.fingerprint() == state.fingerprint()
            assert rebuilt.space_ships == state.space_ships
            assert rebuilt.fleets == state.fleets
            assert rebuilt.log is None
    assert phases == set(Phase)


@pytest.mark.parametrize(("players", "setup", "seed"), GAMES[:2])
def test_without_what_it_hides_the_state_shows_everything_else(
    players: int, setup: str, seed: int
) -> None:
    for state in states(players, setup, seed, every=31):
        seat = seats_to_act(state)[0] if state.phase != Phase.OVER else 0
        seen = view(state, seat)
        template = state_from_view(seen)
        hidden = unseen(state, seat)
        assert template.draw_pile == template.tile_pile == []
        assert all(template.hands[s] == (0, 0, 0, 0, 0) for s in hidden.hands)
        shown = view(template, seat)
        # (what the hidden hands and piles decide: the template has them empty)
        for key in ("draw_pile", "tile_pile", "seats", "last_round"):
            shown.pop(key), seen.pop(key)
        assert shown == seen
        sample = template.copy()
        deal_unseen(sample, hidden)
        assert sample.fingerprint() == state.fingerprint()
        assert template.draw_pile == []  # the template is not changed


# GameState's slots ----------------------------------------------------------------

SLOTS = set(FIELDS)
NOT_FINGERPRINTED = {
    "board": "the same board for every game",
    "seed": "chance, not rules",
    "chances": "chance, not rules",
    "script": "chance, not rules",
    "log": "history, not position",
    "space_ships": "follows ships (add_ships)",
    "fleets": "follows ships (add_ships)",
    "score": "follows the rest at the end",
    "options": "only its setup counts, fingerprinted apart (see below)",
    "card_memo": "a cache of the enumeration (legal.card_actions)",
}
SHARED = {"board", "options", "score", "trade", "discard"}
"""Slots a copy may share: immutable values (or, for the score, never mutated)."""


def _other_value(value: Any) -> Any:
    """A value of the same shape as ``value`` that differs from it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, Phase):
        return Phase((value + 1) % len(Phase))
    if isinstance(value, int):
        return value + 1
    if isinstance(value, tuple):
        return (*value, 99) if not value or not isinstance(value[0], tuple) else value[1:]
    if isinstance(value, list):
        if value and isinstance(value[0], int | bool | tuple):
            return [_other_value(value[0]), *value[1:]]
        return [*value, 1]
    if value is None:
        return (0, 1)
    raise AssertionError(f"no other value for {value!r}")


def lively_state() -> GameState:
    """A state mid-game, during a trade (so that every slot holds something)."""
    for state in states(4, "first", 5, every=1):
        if state.phase == Phase.TRADE and state.round >= 2:
            return state.copy(keep_log=True)
    raise AssertionError("no trade in the game")


def test_copy_covers_every_slot_and_shares_nothing_mutable() -> None:
    state = lively_state()
    state.script = [[1, 2]]
    copy = state.copy(keep_log=True)
    for slot in SLOTS - {"card_memo"}:  # a copy starts without the cache
        assert getattr(copy, slot) == getattr(state, slot), slot
        if slot not in SHARED and isinstance(getattr(state, slot), list):
            assert getattr(copy, slot) is not getattr(state, slot), slot
    search = state.copy(seed=7)
    assert search.log is None and (search.seed, search.chances) == (7, 0)


def test_blank_state_sets_every_slot() -> None:
    state = blank_state(Options(players=3))
    for slot in SLOTS:
        getattr(state, slot)  # an unset slot raises AttributeError


@pytest.mark.parametrize("slot", sorted(SLOTS - set(NOT_FINGERPRINTED)))
def test_the_fingerprint_sees_every_rules_slot(slot: str) -> None:
    state = lively_state()
    changed = state.copy()
    setattr(changed, slot, _other_value(getattr(state, slot)))
    assert changed.fingerprint() != state.fingerprint()


def test_the_fingerprint_sees_the_setup_and_nothing_else_of_the_options() -> None:
    state = lively_state()
    changed = state.copy()
    changed.options = Options(players=4, setup="variable", seed=state.options.seed + 1)
    assert changed.fingerprint() != state.fingerprint()
    changed.options = Options(players=4, setup="first", seed=state.options.seed + 1)
    assert changed.fingerprint() == state.fingerprint()


def test_the_unfingerprinted_slots_are_slots() -> None:
    assert set(NOT_FINGERPRINTED) <= SLOTS


# Grouped enumerations -------------------------------------------------------------


@pytest.mark.parametrize(("players", "setup", "seed"), GAMES)
def test_bank_trades_are_the_enumerated_ones_one_per_trade(
    players: int, setup: str, seed: int
) -> None:
    checked = 0
    for state in states(players, setup, seed, every=3):
        if state.phase != Phase.ACTIONS:
            continue
        seat = state.current
        enumerated = {
            (a[0], sum(a[PAY_AT[a[0]]]) if a[0] == K_BANK_DRAW else a[1]): sum(a[PAY_AT[a[0]]])
            for a in legal_actions(state, seat)
            if a[0] in (K_BANK_DRAW, K_BANK_PICK)
        }
        terms = bank_trades(state, seat)
        assert {(kind, what): price for kind, what, price in terms} == enumerated
        assert len(terms) == len(enumerated)
        legal = set(legal_actions(state, seat))
        hand = state.hands[seat]
        for kind, what, price in terms:  # any cards of the hand pay
            pay = [0, 0, 0, 0, 0]
            left = price
            for card in range(5):
                pay[card] = min(hand[card], left)
                left -= pay[card]
            paid = tuple(pay)
            action = bank_draw(paid) if kind == K_BANK_DRAW else bank_pick(what, paid)  # type: ignore[arg-type]
            assert action in legal
            assert action[UNPAID_AT[kind]] == (kind,) if kind == K_BANK_DRAW else (kind, what)
        checked += 1
    assert checked > 20
