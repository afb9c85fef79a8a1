"""The flow of a game of Tyros: setup, the round, and applying every action.

What a seat may do is decided in :mod:`.legal`; :func:`push` applies an action
only after :func:`.legal.check_action` accepts it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tyros_protocol.board import BOARD, TYROS, Board
from tyros_protocol.cards import CARD_NAMES, COLOUR_NAMES, DECK, names_from_counts
from tyros_protocol.catalogue import event

from .actions import (
    ANSWER_ACCEPT,
    CITY_PAY,
    CITY_SHIP,
    CITY_SPACE,
    COMPLETE_WITH,
    COUNTER_GET,
    COUNTER_GIVE,
    DRAW_PAY,
    EXPAND_COLOUR,
    EXPAND_TILE,
    GIVEN_CARD,
    K_ANSWER,
    K_COUNTER,
    K_GIVE_CARD,
    K_PROPOSE,
    K_WITHDRAW,
    KEPT,
    MOVE_FROM,
    MOVE_PAY,
    MOVE_TO,
    PICK_PAY,
    PICK_TAKE,
    PROPOSE_TO,
    RETURNED_TILE,
    SHIP_PAY,
    SHIP_SPACE,
    TRADE_GET,
    TRADE_GIVE,
    Action,
    Kind,
    Seat,
    action_event,
    action_to_json,
    pending_trade,
)
from .constants import (
    CARDS_DEALT,
    EXPANSION_PASSES,
    FIRST_GAME_STARTS,
    HAND_TILES,
    KEEP_CARDS,
    START_SHIPS_IN_TYROS,
)
from .errors import RecordError
from .legal import check_action, is_last_round, playable_tiles
from .payments import ONE, minus, plus
from .scoring import score_game
from .state import (
    COUNTERED,
    NOT_ASKED,
    P_ACTIONS,
    P_EXPAND,
    P_GIVE_CARD,
    P_KEEP,
    P_OVER,
    P_TRADE,
    PENDING,
    GameState,
    Options,
    blank_state,
)

RULES_VERSION = 1
"""Raise it with any change that makes stored actions play out differently (a rule, a
shuffle, the order of a listing): a server refuses to resume a game stored under another
version instead of letting it silently diverge."""


# Setup and the flow of a round ----------------------------------------------------


def new_game(
    options: Options, board: Board = BOARD, script: list[list[int]] | None = None
) -> GameState:
    """Set up a game and run it to the first decision.

    ``script`` replaces the RNG's shuffles with recorded ones (see :mod:`.record`).
    """
    state = blank_state(options, board)
    state.script = script
    n = state.players
    if options.starting_seat is None:
        state.starting_seat = (
            _next_script(state, "starting seat", list(range(n)))[0]
            if state.script is not None
            else state.chance_rng().randrange(n)
        )
    else:
        state.starting_seat = options.starting_seat
    _log(state, "starting_seat", state.starting_seat)
    state.draw_pile = [card for card, count in enumerate(DECK) for _ in range(count)]
    for seat in range(n):
        state.add_ships(board.build_port(TYROS), seat, START_SHIPS_IN_TYROS)
        state.ship_supply[seat] -= START_SHIPS_IN_TYROS

    every_tile = list(range(1, board.space_count))
    if options.setup == "first":
        starts = list(FIRST_GAME_STARTS)
        chosen = {space for space, _ in starts}
        pile = [tile for tile in every_tile if tile not in chosen]
    else:
        pile = _shuffle(state, every_tile, "tiles")
        starts = _draw_start_spaces(state, pile)
    for space, colour in starts:
        _log(state, "empire_founded", board.space_label(space), COLOUR_NAMES[colour])
        _place_chip(state, space, colour)
        state.removed_tiles.append(space)
    state.tile_pile = _shuffle(state, pile, "tiles")
    for seat in _seats_from(state, state.starting_seat):
        dealt = state.tile_pile[-HAND_TILES:]
        del state.tile_pile[-HAND_TILES:]
        state.tiles[seat] = tuple(sorted(dealt))
        tiles = [board.space_label(t) for t in state.tiles[seat]]
        _log(state, "tiles_dealt", seat, len(dealt), tiles)
    _start_round(state)
    return state


def _draw_start_spaces(state: GameState, pile: list[int]) -> list[tuple[int, int]]:
    """Variable setup: turn tiles over until four non-adjacent start spaces are found."""
    board = state.board
    accepted: list[int] = []
    while len(accepted) < len(COLOUR_NAMES):
        tile = pile.pop()
        taken = set(accepted)
        if taken & set(board.neighbours[TYROS]):
            taken.add(TYROS)  # a chip on 31 or 32 colours Tyros, which then counts as a space
        ok = tile not in taken and not taken.intersection(board.neighbours[tile])
        _log(state, "start_tile", board.space_label(tile), ok)
        if ok:
            accepted.append(tile)
        else:
            pile.insert(0, tile)
    accepted.sort(reverse=True)
    return [(space, colour) for colour, space in enumerate(accepted)]


def _next_script(state: GameState, what: str, items: list[int]) -> list[int]:
    """The next recorded chance outcome: a permutation of ``items`` (or one of them)."""
    assert state.script is not None
    if not state.script:
        raise RecordError(f"the record has no {what} left")
    outcome = list(state.script.pop(0))
    state.chances += 1  # as if drawn, so that play after a replay goes on identically
    fits = (
        sorted(outcome) == sorted(items)
        if len(items) == len(outcome)
        else (len(outcome) == 1 and outcome[0] in items)
    )
    if not fits:
        raise RecordError(f"the recorded {what} does not fit the game")
    return outcome


SHUFFLE = "shuffle"
"""The type of the event that logs a shuffle's outcome. It is in the record only, not in the
catalogue, whose events the view gate shows: nobody may see a pile's order."""


def _shuffle(state: GameState, items: list[int], pile: str) -> list[int]:
    if state.script is not None:
        order = _next_script(state, f"shuffle of the {pile} pile", items)
    else:
        order = items[:]
        state.chance_rng().shuffle(order)
    if state.log is not None:
        names = state.board.space_labels if pile == "tiles" else CARD_NAMES
        state.log.append({"type": SHUFFLE, "pile": pile, "order": [names[i] for i in order]})
    return order


def _log(state: GameState, type_: str, *values: Any) -> None:
    """Log an event of ``type_``, its fields' ``values`` in the catalogue's order."""
    if state.log is not None:
        state.log.append(event(type_, *values))


def _seats_from(state: GameState, first: Seat) -> list[Seat]:
    return [(first + i) % state.players for i in range(state.players)]


def _place_chip(state: GameState, space: int, colour: int) -> None:
    state.chips[space] = colour
    board = state.board
    if space in board.neighbours[TYROS] and state.chips[TYROS] < 0:
        state.chips[TYROS] = colour
        _log(state, "tyros_coloured", COLOUR_NAMES[colour])


def expansion_passes(players: int, round_number: int) -> int:
    """Two expansion passes with 3 players, and in the first round with 4; else one."""
    first, later = EXPANSION_PASSES[players]
    return first if round_number == 1 else later


def _start_round(state: GameState) -> None:
    state.round += 1
    pool = list(state.draw_pile)
    for card, count in enumerate(state.discard):
        pool.extend([card] * count)
    _log(state, "round_start", state.round, state.starting_seat)
    state.draw_pile = _shuffle(state, pool, "cards")
    state.discard = (0, 0, 0, 0, 0)
    deal = CARDS_DEALT[state.players]
    for seat in _seats_from(state, state.starting_seat):
        cards = [0, 0, 0, 0, 0]
        for card in state.draw_pile[-deal:]:
            cards[card] += 1
        del state.draw_pile[-deal:]
        state.hands[seat] = plus(state.hands[seat], tuple(cards))
        _log(state, "cards_dealt", seat, deal, names_from_counts(cards))
    order = _seats_from(state, state.starting_seat)
    state.expand_queue = order * expansion_passes(state.players, state.round)
    _next_expansion_turn(state)


def _next_expansion_turn(state: GameState) -> None:
    board = state.board
    while state.expand_queue:
        seat = state.expand_queue.pop(0)
        if not state.tiles[seat]:
            _log(state, "expansion_skipped", seat, "no_tiles")
            continue
        state.current = seat
        state.phase = P_EXPAND
        if playable_tiles(state, seat):
            return
        state.revealed[seat] = state.tiles[seat]
        _log(state, "tiles_revealed", seat, [board.space_label(t) for t in state.tiles[seat]])
        if state.tile_pile:
            return  # the seat chooses which tile goes under the pile
        _log(state, "expansion_skipped", seat, "pile_empty")
    state.phase = P_ACTIONS
    state.current = state.starting_seat
    state.passes = 0
    state.trade_tried = False
    _log(state, "actions_start", state.current)


def _end_turn(state: GameState, passed: bool) -> None:
    state.passes = state.passes + 1 if passed else 0
    state.trade_tried = False
    if state.passes >= state.players:
        _end_round(state)
    else:
        state.current = (state.current + 1) % state.players


def _end_round(state: GameState) -> None:
    _log(state, "round_end", state.round)
    if is_last_round(state):
        # Cards score nothing, so the final round skips keeping 3 (RULES.md).
        state.phase = P_OVER
        state.score = score_game(state)
        _log(state, "game_end", state.score)
        return
    state.keep_pending = [sum(hand) > KEEP_CARDS for hand in state.hands]
    if any(state.keep_pending):
        state.phase = P_KEEP
    else:
        _next_round(state)


def _next_round(state: GameState) -> None:
    state.starting_seat = state.next_seat(state.starting_seat)
    _start_round(state)


# Applying actions -----------------------------------------------------------------


def push(state: GameState, seat: Seat, action: object) -> None:
    """Check and apply ``seat``'s action; an illegal one raises and changes nothing. The
    action may be anything (:func:`check_action` tells what is not one)."""
    push_unchecked(state, seat, check_action(state, seat, action))


def push_unchecked(state: GameState, seat: Seat, action: Action) -> None:
    """Apply an action taken from :func:`legal_actions` (search and self-play skip the check)."""
    kind = action[0]
    log = state.log
    if log is not None:
        if kind == K_GIVE_CARD:
            log.append(event("action", seat, action_to_json(action, state.board), state.owed_to))
        else:
            log.append(action_event(seat, action, state.board))
    state.version += 1
    if kind not in _TRADE_TALK:  # any other action may change the seat's card actions
        state.card_memo = None
    _APPLY[kind](state, seat, action)


def _expand(state: GameState, seat: Seat, action: Action) -> None:
    tile, colour = action[EXPAND_TILE], action[EXPAND_COLOUR]
    state.tiles[seat] = tuple(t for t in state.tiles[seat] if t != tile)
    state.revealed[seat] = tuple(t for t in state.revealed[seat] if t != tile)
    state.removed_tiles.append(tile)
    _place_chip(state, tile, colour)
    if state.tile_pile:
        _draw_tile(state, seat)
    _next_expansion_turn(state)


def _draw_tile(state: GameState, seat: Seat) -> None:
    tile = state.tile_pile.pop()
    state.tiles[seat] = tuple(sorted((*state.tiles[seat], tile)))
    _log(state, "tile_drawn", seat, 1, state.board.space_label(tile))


def _return_tile(state: GameState, seat: Seat, action: Action) -> None:
    tile = action[RETURNED_TILE]
    state.tiles[seat] = tuple(t for t in state.tiles[seat] if t != tile)
    state.revealed[seat] = tuple(t for t in state.revealed[seat] if t != tile)
    state.tile_pile.insert(0, tile)
    _draw_tile(state, seat)
    _next_expansion_turn(state)


def _pay(state: GameState, seat: Seat, pay: tuple[int, ...]) -> None:
    state.hands[seat] = minus(state.hands[seat], pay)
    state.discard = plus(state.discard, pay)


def _move(state: GameState, seat: Seat, action: Action) -> None:
    start, end = action[MOVE_FROM], action[MOVE_TO]
    _pay(state, seat, action[MOVE_PAY])
    state.add_ships(start, seat, -1)
    state.add_ships(end, seat, 1)
    owner = state.cities[state.board.port_space[end]]
    if owner >= 0 and owner != seat and any(state.hands[seat]):
        state.phase = P_GIVE_CARD
        state.owed_to = owner
        return
    _end_turn(state, passed=False)


def _give_card(state: GameState, seat: Seat, action: Action) -> None:
    card = ONE[action[GIVEN_CARD]]
    owner = state.owed_to
    state.hands[seat] = minus(state.hands[seat], card)
    state.hands[owner] = plus(state.hands[owner], card)
    state.owed_to = -1
    state.phase = P_ACTIONS
    _end_turn(state, passed=False)


def _city(state: GameState, seat: Seat, action: Action) -> None:
    space, port = action[CITY_SPACE], action[CITY_SHIP]
    _pay(state, seat, action[CITY_PAY])
    state.cities[space] = seat
    state.city_supply[seat] -= 1
    state.add_ships(port, seat, -1)
    state.ship_supply[seat] += 1
    if state.all_four_bonus < 0:
        colours = {state.chips[s] for s, owner in enumerate(state.cities) if owner == seat}
        if len(colours) == len(COLOUR_NAMES):
            state.all_four_bonus = seat
            _log(state, "all_four_empires", seat)
    _end_turn(state, passed=False)


def _ship(state: GameState, seat: Seat, action: Action) -> None:
    space = action[SHIP_SPACE]
    _pay(state, seat, action[SHIP_PAY])
    state.add_ships(state.board.build_port(space), seat, 1)
    state.ship_supply[seat] -= 1
    _end_turn(state, passed=False)


def _bank_draw(state: GameState, seat: Seat, action: Action) -> None:
    pay = action[DRAW_PAY]
    _pay(state, seat, pay)
    count = sum(pay)
    drawn = [0, 0, 0, 0, 0]
    for card in state.draw_pile[-count:]:
        drawn[card] += 1
    del state.draw_pile[-count:]
    state.hands[seat] = plus(state.hands[seat], tuple(drawn))
    _log(state, "cards_drawn", seat, count, names_from_counts(drawn))
    _end_turn(state, passed=False)


def _bank_pick(state: GameState, seat: Seat, action: Action) -> None:
    taken = ONE[action[PICK_TAKE]]
    state.discard = minus(state.discard, taken)  # it was there before this action's payment
    _pay(state, seat, action[PICK_PAY])
    state.hands[seat] = plus(state.hands[seat], taken)
    _end_turn(state, passed=False)


def _propose(state: GameState, seat: Seat, action: Action) -> None:
    state.trade = pending_trade(seat, action)
    asked = action[PROPOSE_TO]
    state.answers = [PENDING if asked >> other & 1 else NOT_ASKED for other in range(state.players)]
    state.phase = P_TRADE


def _answer(state: GameState, seat: Seat, action: Action) -> None:
    state.answers[seat] = action[ANSWER_ACCEPT]


def _counter(state: GameState, seat: Seat, action: Action) -> None:
    state.answers[seat] = COUNTERED
    counters = state.counters
    terms = action[COUNTER_GIVE.start : COUNTER_GET.stop]  # (*give, *get)
    state.counters = (*counters[:seat], terms, *counters[seat + 1 :])


def _close_trade(state: GameState) -> None:
    state.trade = None
    state.answers = [NOT_ASKED] * state.players
    if any(state.counters):
        state.counters = (None,) * state.players
    state.phase = P_ACTIONS


def _complete(state: GameState, seat: Seat, action: Action) -> None:
    trade = state.trade
    assert trade is not None
    partner = action[COMPLETE_WITH]
    countered = state.counters[partner] if state.answers[partner] == COUNTERED else None
    if countered is not None:  # on the partner's terms (the proposer's side, as ever)
        give, get = countered[:5], countered[5:]
    else:
        give, get = trade[TRADE_GIVE], trade[TRADE_GET]
    state.hands[seat] = plus(minus(state.hands[seat], give), get)
    state.hands[partner] = plus(minus(state.hands[partner], get), give)
    _log(state, "trade_completed", seat, partner, names_from_counts(give), names_from_counts(get))
    _close_trade(state)
    _end_turn(state, passed=False)


def _withdraw(state: GameState, seat: Seat, action: Action) -> None:
    _close_trade(state)
    state.trade_tried = True


def _keep(state: GameState, seat: Seat, action: Action) -> None:
    keep = action[KEPT]
    dropped = minus(state.hands[seat], keep)
    state.hands[seat] = keep  # type: ignore[assignment]
    state.discard = plus(state.discard, dropped)
    state.keep_pending[seat] = False
    _log(state, "cards_discarded", seat, names_from_counts(dropped))
    if not any(state.keep_pending):
        _next_round(state)


def _pass(state: GameState, seat: Seat, action: Action) -> None:
    _end_turn(state, passed=True)


_TRADE_TALK = frozenset({K_PROPOSE, K_ANSWER, K_COUNTER, K_WITHDRAW})
"""The actions that leave every hand, ship and pile as it was (see ``GameState.card_memo``):
not the catalogue's ``TRADE_TALK``, which holds ``complete`` too (a trade's cards change hands)."""

_APPLY: dict[int, Callable[[GameState, Seat, Action], None]] = {
    Kind.PASS: _pass,
    Kind.EXPAND: _expand,
    Kind.RETURN_TILE: _return_tile,
    Kind.MOVE: _move,
    Kind.CITY: _city,
    Kind.SHIP: _ship,
    Kind.BANK_DRAW: _bank_draw,
    Kind.BANK_PICK: _bank_pick,
    Kind.PROPOSE: _propose,
    Kind.ANSWER: _answer,
    Kind.COMPLETE: _complete,
    Kind.WITHDRAW: _withdraw,
    Kind.GIVE_CARD: _give_card,
    Kind.KEEP: _keep,
    Kind.COUNTER: _counter,
}
