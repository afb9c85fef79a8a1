"""The rules of Tyros: setup, the round, every action, in one place.

:func:`legal_actions` is the one source of legality: :func:`push` accepts an
action only if it is among them (trade proposals, which are too many to list,
are checked by :func:`proposal_problem`, which the enumeration obeys too).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from tyros_protocol.board import BOARD, TYROS, Board
from tyros_protocol.cards import (
    CARD_NAMES,
    COLOUR_NAMES,
    DECK,
    WILD,
    CardCounts,
    names_from_counts,
)

from .actions import (
    KIND_NAMES,
    LENGTH,
    PASS,
    WITHDRAW,
    Action,
    Kind,
    Seat,
    action_to_json,
    payment,
    seats_in_mask,
)
from .errors import IllegalActionError, Reason, RecordError
from .scoring import score_game
from .state import (
    ACCEPTED,
    FIRST_GAME_STARTS,
    HAND_TILES,
    KEEP_CARDS,
    MAX_SEATS,
    NOT_ASKED,
    PENDING,
    START_SHIPS_IN_TYROS,
    GameState,
    Options,
    Phase,
    blank_state,
)

CARDS_DEALT = {3: 12, 4: 10}
BANK_DRAW_MAX = 3
BANK_PICK_COST = 3
CITY_COST = (5, 4)
"""Cards to build a city with one ship / with two ships there."""
SHIP_LIMIT = 2


# Card arithmetic ------------------------------------------------------------------


def _minus(a: CardCounts, b: tuple[int, ...]) -> CardCounts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4])


def _plus(a: CardCounts, b: tuple[int, ...]) -> CardCounts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


def covers(hand: tuple[int, ...], cards: tuple[int, ...]) -> bool:
    """Whether ``hand`` holds at least ``cards``."""
    return (hand[0] >= cards[0] and hand[1] >= cards[1] and hand[2] >= cards[2]
            and hand[3] >= cards[3] and hand[4] >= cards[4])


def _one(card: int) -> CardCounts:
    counts = [0, 0, 0, 0, 0]
    counts[card] = 1
    return tuple(counts)  # type: ignore[return-value]


@lru_cache(maxsize=1 << 16)
def submultisets(hand: CardCounts, size: int) -> tuple[CardCounts, ...]:
    """Every distinct choice of ``size`` cards from ``hand``.

    >>> submultisets((2, 0, 0, 0, 1), 2)
    ((2, 0, 0, 0, 0), (1, 0, 0, 0, 1))
    """
    out: list[CardCounts] = []

    def walk(kind: int, left: int, chosen: list[int]) -> None:
        if kind == 5:
            if left == 0:
                out.append(tuple(chosen))  # type: ignore[arg-type]
            return
        rest = sum(hand[kind + 1:])
        for take in range(min(hand[kind], left), -1, -1):
            if left - take > rest:
                break
            chosen.append(take)
            walk(kind + 1, left - take, chosen)
            chosen.pop()

    walk(0, size, [])
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def colour_payments(colour: int, count: int, have: int, wilds: int) -> tuple[CardCounts, ...]:
    """Every way to pay ``count`` cards of ``colour`` (each may be a wild), fewest wilds first.

    >>> colour_payments(2, 3, 2, 4)
    ((0, 0, 2, 0, 1), (0, 0, 1, 0, 2), (0, 0, 0, 0, 3))
    """
    out = []
    for wild in range(max(0, count - have), min(wilds, count) + 1):
        pay = [0, 0, 0, 0, 0]
        pay[colour] = count - wild
        pay[WILD] += wild
        out.append(tuple(pay))
    return tuple(out)  # type: ignore[arg-type]


# Setup and the flow of a round ----------------------------------------------------


def new_game(options: Options, board: Board = BOARD,
             script: list[list[int]] | None = None) -> GameState:
    """Set up a game and run it to the first decision.

    ``script`` replaces the RNG's shuffles with recorded ones (see :mod:`.record`).
    """
    state = blank_state(options, board)
    state.script = script
    n = state.players
    if options.starting_seat is None:
        state.starting_seat = state.rng.randrange(n)
    else:
        state.starting_seat = options.starting_seat
    _log(state, {"type": "starting_seat", "seat": state.starting_seat})
    state.draw_pile = [card for card, count in enumerate(DECK) for _ in range(count)]
    for seat in range(n):
        state.ships[board.build_port(TYROS) * MAX_SEATS + seat] = START_SHIPS_IN_TYROS
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
        _place_chip(state, space, colour)
        state.removed_tiles.append(space)
        _log(state, {"type": "empire_founded", "space": board.space_label(space),
                     "colour": COLOUR_NAMES[colour]})
    state.tile_pile = _shuffle(state, pile, "tiles")
    for seat in _seats_from(state, state.starting_seat):
        dealt = state.tile_pile[-HAND_TILES:]
        del state.tile_pile[-HAND_TILES:]
        state.tiles[seat] = tuple(sorted(dealt))
        _log(state, {"type": "tiles_dealt", "seat": seat, "count": len(dealt),
                     "tiles": [board.space_label(t) for t in state.tiles[seat]]})
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
        _log(state, {"type": "start_tile", "tile": board.space_label(tile), "accepted": ok})
        if ok:
            accepted.append(tile)
        else:
            pile.insert(0, tile)
    accepted.sort(reverse=True)
    return [(space, colour) for colour, space in enumerate(accepted)]


def _shuffle(state: GameState, items: list[int], pile: str) -> list[int]:
    if state.script is not None:
        if not state.script:
            raise RecordError(f"the record has no shuffle left for the {pile} pile")
        order = state.script.pop(0)
        if sorted(order) != sorted(items):
            raise RecordError(f"recorded {pile} shuffle does not hold the cards of the pile")
        order = list(order)
    else:
        order = items[:]
        state.rng.shuffle(order)
    if state.log is not None:
        names = state.board.space_labels if pile == "tiles" else CARD_NAMES
        state.log.append({"type": "shuffle", "pile": pile, "order": [names[i] for i in order]})
    return order


def _log(state: GameState, event: dict[str, Any]) -> None:
    if state.log is not None:
        state.log.append(event)


def _seats_from(state: GameState, first: Seat) -> list[Seat]:
    return [(first + i) % state.players for i in range(state.players)]


def _place_chip(state: GameState, space: int, colour: int) -> None:
    state.chips[space] = colour
    board = state.board
    if space in board.neighbours[TYROS] and state.chips[TYROS] < 0:
        state.chips[TYROS] = colour
        _log(state, {"type": "tyros_coloured", "colour": COLOUR_NAMES[colour]})


def expansion_passes(players: int, round_number: int) -> int:
    """Two expansion passes with 3 players, and in the first round with 4; else one."""
    return 2 if players == 3 or round_number == 1 else 1


def _start_round(state: GameState) -> None:
    state.round += 1
    pool = list(state.draw_pile)
    for card, count in enumerate(state.discard):
        pool.extend([card] * count)
    _log(state, {"type": "round_start", "round": state.round,
                 "starting_seat": state.starting_seat})
    state.draw_pile = _shuffle(state, pool, "cards")
    state.discard = (0, 0, 0, 0, 0)
    deal = CARDS_DEALT[state.players]
    for seat in _seats_from(state, state.starting_seat):
        cards = [0, 0, 0, 0, 0]
        for card in state.draw_pile[-deal:]:
            cards[card] += 1
        del state.draw_pile[-deal:]
        state.hands[seat] = _plus(state.hands[seat], cards)
        _log(state, {"type": "cards_dealt", "seat": seat, "count": deal,
                     "cards": names_from_counts(cards)})
    order = _seats_from(state, state.starting_seat)
    state.expand_queue = order * expansion_passes(state.players, state.round)
    _next_expansion_turn(state)


def playable_tiles(state: GameState, seat: Seat) -> list[tuple[int, list[int]]]:
    """(tile, colours it may take) for each tile of the seat next to an empire."""
    chips = state.chips
    neighbours = state.board.neighbours
    out = []
    for tile in state.tiles[seat]:
        if chips[tile] >= 0:
            continue
        colours = sorted({chips[n] for n in neighbours[tile] if chips[n] >= 0})
        if colours:
            out.append((tile, colours))
    return out


def _next_expansion_turn(state: GameState) -> None:
    board = state.board
    while state.expand_queue:
        seat = state.expand_queue.pop(0)
        if not state.tiles[seat]:
            _log(state, {"type": "expansion_skipped", "seat": seat, "reason": "no_tiles"})
            continue
        state.current = seat
        state.phase = Phase.EXPAND
        if playable_tiles(state, seat):
            return
        state.revealed[seat] = state.tiles[seat]
        _log(state, {"type": "tiles_revealed", "seat": seat,
                     "tiles": [board.space_label(t) for t in state.tiles[seat]]})
        if state.tile_pile:
            return  # the seat chooses which tile goes under the pile
        _log(state, {"type": "expansion_skipped", "seat": seat, "reason": "pile_empty"})
    state.phase = Phase.ACTIONS
    state.current = state.starting_seat
    state.passes = 0
    state.trade_tried = False
    _log(state, {"type": "actions_start", "seat": state.current})


def _end_turn(state: GameState, passed: bool) -> None:
    state.passes = state.passes + 1 if passed else 0
    state.trade_tried = False
    if state.passes >= state.players:
        _end_round(state)
    else:
        state.current = state.next_seat(state.current)


def _end_round(state: GameState) -> None:
    _log(state, {"type": "round_end", "round": state.round})
    if any(not tiles for tiles in state.tiles):
        # Cards score nothing, so the final round skips keeping 3 (RULES.md).
        state.phase = Phase.OVER
        state.score = score_game(state)
        _log(state, {"type": "game_end", "score": state.score})
        return
    state.keep_pending = [sum(hand) > KEEP_CARDS for hand in state.hands]
    if any(state.keep_pending):
        state.phase = Phase.KEEP
    else:
        _next_round(state)


def _next_round(state: GameState) -> None:
    state.starting_seat = state.next_seat(state.starting_seat)
    _start_round(state)


# Who acts, and what they may do ---------------------------------------------------


def seats_to_act(state: GameState) -> list[Seat]:
    """Seats that must decide now; during a trade the asked seats come before the proposer."""
    phase = state.phase
    if phase == Phase.OVER:
        return []
    if phase == Phase.KEEP:
        return [seat for seat, pending in enumerate(state.keep_pending) if pending]
    if phase == Phase.TRADE:
        waiting = [seat for seat, answer in enumerate(state.answers) if answer == PENDING]
        return [*waiting, state.current]
    return [state.current]


def legal_actions(state: GameState, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now (trade proposals: a canonical family)."""
    phase = state.phase
    hand = state.hands[seat]
    if phase == Phase.OVER:
        return []
    if phase == Phase.KEEP:
        if not state.keep_pending[seat]:
            return []
        return [(Kind.KEEP, *keep) for keep in submultisets(hand, KEEP_CARDS)]
    if phase == Phase.TRADE:
        return _trade_replies(state, seat)
    if seat != state.current:
        return []
    if phase == Phase.EXPAND:
        playable = playable_tiles(state, seat)
        if playable:
            return [(Kind.EXPAND, tile, colour) for tile, colours in playable
                    for colour in colours]
        return [(Kind.RETURN_TILE, tile) for tile in state.tiles[seat]]
    if phase == Phase.GIVE_CARD:
        return [(Kind.GIVE_CARD, card) for card in range(5) if hand[card]]
    out: list[Action] = [PASS]
    _moves(state, seat, hand, out)
    _cities(state, seat, hand, out)
    _ships(state, seat, hand, out)
    _bank_trades(state, hand, out)
    _proposals(state, seat, hand, out)
    return out


def _room_for_ship(state: GameState, seat: Seat, space: int) -> bool:
    """Whether one more ship of ``seat`` may end a move in ``space``."""
    if space == TYROS and state.cities[TYROS] < 0:
        return state.ships_in_space(TYROS, seat) < SHIP_LIMIT
    return state.total_ships_in_space(space) < SHIP_LIMIT


def _moves(state: GameState, seat: Seat, hand: CardCounts, out: list[Action]) -> None:
    board = state.board
    ships = state.ships
    chips = state.chips
    port_space = board.port_space
    wilds = hand[WILD]
    room: dict[int, bool] = {}
    for start in range(board.port_count):
        if not ships[start * MAX_SEATS + seat]:
            continue
        start_space = port_space[start]
        for end, steps in enumerate(board.distance[start]):
            if steps <= 0:
                continue  # the same port, or unreachable
            space = port_space[end]
            colour = chips[space]
            if colour < 0 or hand[colour] + wilds < steps:
                continue
            if space != start_space:  # leaving 16 and coming back keeps its ship count
                ok = room.get(space)
                if ok is None:
                    ok = room[space] = _room_for_ship(state, seat, space)
                if not ok:
                    continue
            for pay in colour_payments(colour, steps, hand[colour], wilds):
                out.append((Kind.MOVE, start, end, *pay))


def _cities(state: GameState, seat: Seat, hand: CardCounts, out: list[Action]) -> None:
    if not state.city_supply[seat]:
        return
    board = state.board
    ships = state.ships
    for space in range(board.space_count):
        colour = state.chips[space]
        if colour < 0 or state.cities[space] >= 0:
            continue
        mine = state.ships_in_space(space, seat)
        if not mine or state.total_ships_in_space(space) != mine:
            continue
        cost = CITY_COST[1] if mine >= 2 else CITY_COST[0]
        pays = colour_payments(colour, cost, hand[colour], hand[WILD])
        if not pays:
            continue
        for port in board.space_ports[space]:
            if ships[port * MAX_SEATS + seat]:
                for pay in pays:
                    out.append((Kind.CITY, space, port, *pay))


def ship_payments(state: GameState, seat: Seat, space: int) -> tuple[CardCounts, ...]:
    """Every way ``seat`` may pay to build a ship in ``space`` now (empty if it may not)."""
    hand = state.hands[seat]
    if not state.ship_supply[seat]:
        return ()
    owner = state.cities[space]
    if space == TYROS and owner < 0:
        if state.ships_in_space(TYROS, seat) >= SHIP_LIMIT:
            return ()
        return submultisets(hand, state.total_ships_in_space(TYROS) + 1)
    if owner != seat:
        return ()
    colour = state.chips[space]
    present = state.total_ships_in_space(space)
    if present == 0:
        return colour_payments(colour, 1, hand[colour], hand[WILD])
    if present == 1:
        return tuple(pay for pay in submultisets(hand, 2) if pay[colour] + pay[WILD] >= 1)
    return ()


def _ships(state: GameState, seat: Seat, hand: CardCounts, out: list[Action]) -> None:
    if not state.ship_supply[seat]:
        return
    for space in range(state.board.space_count):
        if space == TYROS or state.cities[space] == seat:
            for pay in ship_payments(state, seat, space):
                out.append((Kind.SHIP, space, *pay))


def _bank_trades(state: GameState, hand: CardCounts, out: list[Action]) -> None:
    available = len(state.draw_pile)
    for size in range(1, min(BANK_DRAW_MAX, available) + 1):
        for pay in submultisets(hand, size):
            out.append((Kind.BANK_DRAW, *pay))
    discard = state.discard
    if any(discard):
        pays = submultisets(hand, BANK_PICK_COST)
        for take in range(5):
            if discard[take]:
                for pay in pays:
                    out.append((Kind.BANK_PICK, take, *pay))


def _may_propose(state: GameState, seat: Seat) -> str | None:
    if state.phase != Phase.ACTIONS or seat != state.current:
        return "a trade can be proposed only as your card action"
    if state.trade_tried:
        return "your trade fell through this turn: take another action or pass"
    return None


def _proposals(state: GameState, seat: Seat, hand: CardCounts, out: list[Action]) -> None:
    """The canonical family: one card for one card of another kind, asked of everyone."""
    if _may_propose(state, seat) is not None:
        return
    others = 0
    for other in range(state.players):
        if other != seat:
            others |= 1 << other
    for give in range(5):
        if hand[give]:
            for get in range(5):
                if get != give:
                    out.append((Kind.PROPOSE, others, *_one(give), *_one(get)))


def proposal_problem(state: GameState, seat: Seat, action: Action) -> tuple[Reason, str] | None:
    """Why a trade proposal is not allowed, or None if it is."""
    problem = _may_propose(state, seat)
    if problem is not None:
        reason = Reason.TRADE_ALREADY_TRIED if state.trade_tried else Reason.WRONG_PHASE
        return reason, problem
    mask = action[1]
    give, get = action[2:7], action[7:12]
    if mask <= 0 or mask >> state.players or mask >> seat & 1:
        return Reason.ILLEGAL, "ask one or more other seats of this table"
    if min(give) < 0 or min(get) < 0 or not any(give) and not any(get):
        return Reason.ILLEGAL, "a trade must move at least one card"
    if any(n > limit for n, limit in zip(get, DECK, strict=True)):
        return Reason.ILLEGAL, "you ask for more cards of a kind than the game has"
    if not covers(state.hands[seat], give):
        return Reason.CANNOT_AFFORD, "you do not hold the cards you offer"
    return None


def _trade_replies(state: GameState, seat: Seat) -> list[Action]:
    trade = state.trade
    assert trade is not None
    if seat == state.current:
        completes = [(Kind.COMPLETE, other) for other, answer in enumerate(state.answers)
                     if answer == ACCEPTED]
        return [WITHDRAW, *completes]
    if state.answers[seat] != PENDING:
        return []
    get = trade[7:12]
    if covers(state.hands[seat], get):
        return [(Kind.ANSWER, 0), (Kind.ANSWER, 1)]
    return [(Kind.ANSWER, 0)]


# Applying actions -----------------------------------------------------------------


def check_action(state: GameState, seat: Seat, action: Action) -> None:
    """Raise :class:`IllegalActionError` unless ``seat`` may take ``action`` now."""
    if state.phase == Phase.OVER:
        raise IllegalActionError(Reason.GAME_OVER, "the game is over")
    if (not isinstance(action, tuple) or not action
            or not all(type(x) is int or isinstance(x, Kind) for x in action)
            or not 0 <= action[0] < len(Kind) or len(action) != LENGTH[action[0]]):
        raise IllegalActionError(Reason.MALFORMED, "not an action")
    if not isinstance(seat, int) or seat not in seats_to_act(state):
        raise IllegalActionError(Reason.NOT_YOUR_TURN, f"seat {seat} is not to act now")
    if action[0] == Kind.PROPOSE:
        found = proposal_problem(state, seat, action)
        if found is not None:
            raise IllegalActionError(*found)
        return
    legal = legal_actions(state, seat)
    if action in legal:
        return
    kinds = sorted({KIND_NAMES[Kind(a[0])] for a in legal})
    name = KIND_NAMES[Kind(action[0])]
    if name not in kinds:
        raise IllegalActionError(Reason.WRONG_PHASE,
                                 f"you cannot {name} now; you may: {', '.join(kinds)}")
    pay = payment(action)
    if min(pay) < 0 or not covers(state.hands[seat], pay):
        raise IllegalActionError(Reason.CANNOT_AFFORD, "you do not hold those cards")
    raise IllegalActionError(Reason.ILLEGAL, f"that {name} is not allowed now")


def push(state: GameState, seat: Seat, action: Action) -> None:
    """Check and apply ``seat``'s action; an illegal one raises and changes nothing."""
    check_action(state, seat, action)
    push_unchecked(state, seat, action)


def push_unchecked(state: GameState, seat: Seat, action: Action) -> None:
    """Apply an action taken from :func:`legal_actions` (search and self-play skip the check)."""
    kind = action[0]
    if state.log is not None:
        event: dict[str, Any] = {"type": "action", "seat": seat,
                                 "action": action_to_json(action, state.board)}
        if kind == Kind.GIVE_CARD:
            event["to"] = state.owed_to
        state.log.append(event)
    state.version += 1
    _APPLY[kind](state, seat, action)


def _expand(state: GameState, seat: Seat, action: Action) -> None:
    tile, colour = action[1], action[2]
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
    _log(state, {"type": "tile_drawn", "seat": seat, "count": 1,
                 "tile": state.board.space_label(tile)})


def _return_tile(state: GameState, seat: Seat, action: Action) -> None:
    tile = action[1]
    state.tiles[seat] = tuple(t for t in state.tiles[seat] if t != tile)
    state.revealed[seat] = tuple(t for t in state.revealed[seat] if t != tile)
    state.tile_pile.insert(0, tile)
    _draw_tile(state, seat)
    _next_expansion_turn(state)


def _pay(state: GameState, seat: Seat, pay: tuple[int, ...]) -> None:
    state.hands[seat] = _minus(state.hands[seat], pay)
    state.discard = _plus(state.discard, pay)


def _move(state: GameState, seat: Seat, action: Action) -> None:
    start, end = action[1], action[2]
    _pay(state, seat, action[3:8])
    state.ships[start * MAX_SEATS + seat] -= 1
    state.ships[end * MAX_SEATS + seat] += 1
    owner = state.cities[state.board.port_space[end]]
    if owner >= 0 and owner != seat and any(state.hands[seat]):
        state.phase = Phase.GIVE_CARD
        state.owed_to = owner
        return
    _end_turn(state, passed=False)


def _give_card(state: GameState, seat: Seat, action: Action) -> None:
    card = _one(action[1])
    owner = state.owed_to
    state.hands[seat] = _minus(state.hands[seat], card)
    state.hands[owner] = _plus(state.hands[owner], card)
    state.owed_to = -1
    state.phase = Phase.ACTIONS
    _end_turn(state, passed=False)


def _city(state: GameState, seat: Seat, action: Action) -> None:
    space, port = action[1], action[2]
    _pay(state, seat, action[3:8])
    state.cities[space] = seat
    state.city_supply[seat] -= 1
    state.ships[port * MAX_SEATS + seat] -= 1
    state.ship_supply[seat] += 1
    if state.all_four_bonus < 0:
        colours = {state.chips[s] for s, owner in enumerate(state.cities) if owner == seat}
        if len(colours) == len(COLOUR_NAMES):
            state.all_four_bonus = seat
            _log(state, {"type": "all_four_empires", "seat": seat})
    _end_turn(state, passed=False)


def _ship(state: GameState, seat: Seat, action: Action) -> None:
    space = action[1]
    _pay(state, seat, action[2:7])
    state.ships[state.board.build_port(space) * MAX_SEATS + seat] += 1
    state.ship_supply[seat] -= 1
    _end_turn(state, passed=False)


def _bank_draw(state: GameState, seat: Seat, action: Action) -> None:
    pay = action[1:6]
    _pay(state, seat, pay)
    count = sum(pay)
    drawn = [0, 0, 0, 0, 0]
    for card in state.draw_pile[-count:]:
        drawn[card] += 1
    del state.draw_pile[-count:]
    state.hands[seat] = _plus(state.hands[seat], drawn)
    _log(state, {"type": "cards_drawn", "seat": seat, "count": count,
                 "cards": names_from_counts(drawn)})
    _end_turn(state, passed=False)


def _bank_pick(state: GameState, seat: Seat, action: Action) -> None:
    taken = _one(action[1])
    state.discard = _minus(state.discard, taken)  # it was there before this action's payment
    _pay(state, seat, action[2:7])
    state.hands[seat] = _plus(state.hands[seat], taken)
    _end_turn(state, passed=False)


def _propose(state: GameState, seat: Seat, action: Action) -> None:
    state.trade = (seat, *action[1:])
    state.answers = [PENDING if other in seats_in_mask(action[1]) else NOT_ASKED
                     for other in range(state.players)]
    state.phase = Phase.TRADE


def _answer(state: GameState, seat: Seat, action: Action) -> None:
    state.answers[seat] = action[1]


def _close_trade(state: GameState) -> None:
    state.trade = None
    state.answers = [NOT_ASKED] * state.players
    state.phase = Phase.ACTIONS


def _complete(state: GameState, seat: Seat, action: Action) -> None:
    trade = state.trade
    assert trade is not None
    partner = action[1]
    give, get = trade[2:7], trade[7:12]
    state.hands[seat] = _plus(_minus(state.hands[seat], give), get)
    state.hands[partner] = _plus(_minus(state.hands[partner], get), give)
    _log(state, {"type": "trade_completed", "seat": seat, "with": partner,
                 "give": names_from_counts(give), "get": names_from_counts(get)})
    _close_trade(state)
    _end_turn(state, passed=False)


def _withdraw(state: GameState, seat: Seat, action: Action) -> None:
    _close_trade(state)
    state.trade_tried = True


def _keep(state: GameState, seat: Seat, action: Action) -> None:
    keep = action[1:6]
    dropped = _minus(state.hands[seat], keep)
    state.hands[seat] = keep  # type: ignore[assignment]
    state.discard = _plus(state.discard, dropped)
    state.keep_pending[seat] = False
    _log(state, {"type": "cards_discarded", "seat": seat, "cards": names_from_counts(dropped)})
    if not any(state.keep_pending):
        _next_round(state)


def _pass(state: GameState, seat: Seat, action: Action) -> None:
    _end_turn(state, passed=True)


_APPLY = {
    Kind.PASS: _pass, Kind.EXPAND: _expand, Kind.RETURN_TILE: _return_tile, Kind.MOVE: _move,
    Kind.CITY: _city, Kind.SHIP: _ship, Kind.BANK_DRAW: _bank_draw, Kind.BANK_PICK: _bank_pick,
    Kind.PROPOSE: _propose, Kind.ANSWER: _answer, Kind.COMPLETE: _complete,
    Kind.WITHDRAW: _withdraw, Kind.GIVE_CARD: _give_card, Kind.KEEP: _keep,
}

__all__ = [
    "CARD_NAMES", "check_action", "colour_payments", "covers", "expansion_passes",
    "legal_actions", "new_game", "playable_tiles", "proposal_problem", "push",
    "push_unchecked", "seats_to_act", "ship_payments", "submultisets",
]
