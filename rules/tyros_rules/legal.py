"""Who must act, and what they may do: the one source of legality.

:func:`legal_actions` enumerates; :func:`check_action` accepts an action only
if it is among them (trade proposals, too many to list, are checked by
:func:`.trades.proposal_problem`, which the enumeration obeys too; the trades are listed
and checked in :mod:`.trades`).

The enumeration is the engine's hot path (bots and search call it at every
step), so the action tuples for a given hand are built once and cached.
"""

from __future__ import annotations

from functools import lru_cache

from tyros_protocol.board import TYROS, Board
from tyros_protocol.cards import CARD_NAMES, WILD, CardCounts

from .actions import (
    K_BANK_DRAW,
    K_BANK_PICK,
    K_CITY,
    K_EXPAND,
    K_GIVE_CARD,
    K_KEEP,
    K_MOVE,
    K_RETURN_TILE,
    K_SHIP,
    KIND_NAMES,
    LENGTH,
    PASS,
    Action,
    Kind,
    Seat,
    payment,
)
from .constants import (
    BANK_DRAW_MAX,
    BANK_PICK_COST,
    CITIES_PER_PLAYER,
    CITY_COST,
    KEEP_CARDS,
    MAX_SEATS,
    SHIP_CARDS_OF_COLOUR,
    SHIP_COST,
    SHIP_LIMIT,
)
from .errors import IllegalActionError, Reason
from .payments import capped, colour_payments, covers, submultisets
from .pool import pooled
from .state import (
    P_ACTIONS,
    P_EXPAND,
    P_KEEP,
    P_OVER,
    P_TRADE,
    PENDING,
    GameState,
    Phase,
)
from .trades import counter_problem, listed_proposals, may_propose, proposal_problem, trade_replies

_BANK_CAP = max(BANK_DRAW_MAX, BANK_PICK_COST)
"""Cards of a kind that a bank trade can use: :func:`_bank_trades` packs each count of a
hand capped at it, and the draw's size, in 2 bits."""

PHASE_KINDS: dict[Phase, frozenset[Kind]] = {
    Phase.EXPAND: frozenset({Kind.EXPAND, Kind.RETURN_TILE}),
    Phase.ACTIONS: frozenset(
        {Kind.PASS, Kind.MOVE, Kind.CITY, Kind.SHIP, Kind.BANK_DRAW, Kind.BANK_PICK, Kind.PROPOSE}
    ),
    Phase.TRADE: frozenset({Kind.ANSWER, Kind.COUNTER, Kind.COMPLETE, Kind.WITHDRAW}),
    Phase.GIVE_CARD: frozenset({Kind.GIVE_CARD}),
    Phase.KEEP: frozenset({Kind.KEEP}),
    Phase.OVER: frozenset(),
}
"""The kinds of action each phase is about (whether or not one is legal right now)."""


def seats_to_act(state: GameState) -> list[Seat]:
    """Seats that must decide now; during a trade the asked seats come before the proposer."""
    phase = state.phase
    if phase == P_TRADE:
        answers = state.answers
        if PENDING in answers:
            waiting = [seat for seat, answer in enumerate(answers) if answer == PENDING]
            waiting.append(state.current)
            return waiting
        return [state.current]
    if phase == P_KEEP:
        return [seat for seat, pending in enumerate(state.keep_pending) if pending]
    if phase == P_OVER:
        return []
    return [state.current]


def is_last_round(state: GameState) -> bool:
    """Whether the game ends with this round: a seat holds no tiles (the rulebook's game end,
    checked when the round ends).

    >>> from tyros_rules import Options, new_game
    >>> state = new_game(Options(players=3, seed=1))
    >>> is_last_round(state)
    False
    >>> state.tiles[1] = ()
    >>> is_last_round(state)
    True
    """
    return state.phase != P_OVER and any(not state.tiles[seat] for seat in range(state.players))


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


def legal_actions(state: GameState, seat: Seat) -> list[Action]:
    """Every action ``seat`` may take now (trade proposals: a canonical family)."""
    phase = state.phase
    if phase == P_ACTIONS:
        return card_actions(state, seat) if seat == state.current else []
    if phase == P_TRADE:
        return trade_replies(state, seat)
    if phase == P_OVER:
        return []
    hand = state.hands[seat]
    if phase == P_KEEP:
        return list(_keeps(capped(hand, KEEP_CARDS))) if state.keep_pending[seat] else []
    if seat != state.current:
        return []
    if phase == P_EXPAND:
        playable = playable_tiles(state, seat)
        if playable:
            return [(K_EXPAND, tile, colour) for tile, colours in playable for colour in colours]
        return [(K_RETURN_TILE, tile) for tile in state.tiles[seat]]
    # Phase.GIVE_CARD
    return [(K_GIVE_CARD, card) for card in range(5) if hand[card]]


def card_actions(state: GameState, seat: Seat, kind: int | None = None) -> list[Action]:
    """The card actions of the seat to act: all of them, or only those of one ``kind``."""
    hand = state.hands[seat]
    ports = state.fleets[seat]
    if kind is None:  # the hot path: everything, in the order of the kinds
        trade_tried = state.trade_tried
        if trade_tried:  # after a withdrawn proposal: the same actions as before it
            memo = state.card_memo
            if memo is not None and memo[0] == seat and memo[1] == hand:
                return list(memo[2])
        out: list[Action] = [PASS]
        if ports:
            _moves(state, seat, hand, ports, out)
            if max(hand[0], hand[1], hand[2], hand[3]) + hand[WILD] >= CITY_COST[1]:
                _cities(state, seat, hand, ports, out)  # (no city is affordable otherwise)
        if state.ship_supply[seat]:
            _ships(state, seat, out)
        out.extend(_bank_trades(state, hand))
        if not trade_tried:  # may_propose, inlined: this is the seat to act
            state.card_memo = (seat, hand, tuple(out))
            out.extend(listed_proposals(hand, seat, state.players))
        return out
    out = [PASS] if kind == Kind.PASS else []
    if kind == Kind.MOVE and ports:
        _moves(state, seat, hand, ports, out)
    elif kind == Kind.CITY and ports:
        _cities(state, seat, hand, ports, out)
    elif kind == Kind.SHIP:
        _ships(state, seat, out)
    elif kind in (K_BANK_DRAW, K_BANK_PICK):
        out.extend(_bank_trades(state, hand))
    elif kind == Kind.PROPOSE and may_propose(state, seat) is None:
        out.extend(listed_proposals(hand, seat, state.players))
    return out


def fewest_wilds(state: GameState, seat: Seat) -> list[Action]:
    """The moves, then the cities, of the seat to act, one action each: the payment with
    the fewest wilds (the first that :func:`card_actions` lists). A search that spends
    colours before wilds asks for this; listing every payment costs it twice as much.

    >>> from .rules import new_game
    >>> from .state import Options
    >>> state = new_game(Options(players=4, seed=1))
    >>> state.phase, state.current = Phase.ACTIONS, 0
    >>> state.hands[0] = (2, 2, 2, 2, 2)
    >>> firsts: dict[tuple[int, ...], Action] = {}
    >>> for action in card_actions(state, 0, Kind.MOVE) + card_actions(state, 0, Kind.CITY):
    ...     _ = firsts.setdefault(action[:3], action)
    >>> fewest_wilds(state, 0) == list(firsts.values()) != []
    True
    """
    out: list[Action] = []
    ports = state.fleets[seat]
    if ports:
        hand = state.hands[seat]
        _moves(state, seat, hand, ports, out, every=False)
        _cities(state, seat, hand, ports, out, every=False)
    return out


def room_for_ship(state: GameState, seat: Seat, space: int) -> bool:
    """Whether one more ship of ``seat`` may end a move in ``space``."""
    if space == TYROS and state.cities[TYROS] < 0:
        return state.ships_in_space(TYROS, seat) < SHIP_LIMIT
    return state.total_ships_in_space(space) < SHIP_LIMIT


def _move_actions(
    start: int, end: int, colour: int, steps: int, have: int, wilds: int
) -> tuple[Action, ...]:
    pays = colour_payments(colour, steps, have, wilds)
    return pooled((K_MOVE, start, end, *pay) for pay in pays)


_MoveCells = list[list[list[tuple[Action, ...] | None]] | None]
"""A move's actions by colour, then cards of the colour and wilds held (each capped at
the move's steps: more cannot change how it is paid), built when first asked for."""

_MoveRow = tuple[int, int, int, _MoveCells]
"""(end port, steps, end space, the move's cells)."""


class _MoveTable:
    """``rows[start][steps]``: the board's ``within`` with a cache of actions on each entry.

    The engine's hottest loop finds a move's actions by list index: a cache hit on its six
    ints cost four times as much (an ``lru_cache`` of 25,000 entries, looked up at random).
    It holds the board, so that its ``id`` (the key) is never reused.
    """

    __slots__ = ("board", "rows")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.rows: tuple[tuple[tuple[_MoveRow, ...], ...], ...] = tuple(
            self._rows_of(reaches) for reaches in board.within
        )

    @staticmethod
    def _rows_of(
        reaches: tuple[tuple[tuple[int, int, int], ...], ...],
    ) -> tuple[tuple[_MoveRow, ...], ...]:
        # Each row lists the nearer ones again: share one cell list per (start, end).
        cells: dict[int, _MoveCells] = {}
        return tuple(
            tuple(
                (end, steps, space, cells.setdefault(end, [None] * 4)) for end, steps, space in row
            )
            for row in reaches
        )


_MOVE_TABLES: dict[int, _MoveTable] = {}


def _move_table(board: Board) -> _MoveTable:
    found = _MOVE_TABLES.get(id(board))
    if found is None:
        found = _MOVE_TABLES[id(board)] = _MoveTable(board)
    return found


def _moves(
    state: GameState,
    seat: Seat,
    hand: CardCounts,
    ports: tuple[int, ...],
    out: list[Action],
    every: bool = True,
) -> None:
    board = state.board
    chips, ships, space_ships = state.chips, state.ships, state.space_ships
    port_space = board.port_space
    table = (_MOVE_TABLES.get(id(board)) or _move_table(board)).rows
    wilds = hand[WILD]
    budget = (hand[0] + wilds, hand[1] + wilds, hand[2] + wilds, hand[3] + wilds)  # by colour
    reach = max(budget)
    tyros_open = state.cities[TYROS] < 0
    for start in ports:
        start_space = port_space[start]
        rows = table[start]
        for end, steps, space, cells in rows[reach] if reach < len(rows) else rows[-1]:
            colour = chips[space]
            if colour < 0 or steps > budget[colour]:
                continue
            # room_for_ship, inlined: this loop is the engine's hottest. Leaving Italy and
            # coming back to its other coast keeps its ship count, so needs no room.
            if space != start_space:
                if space == TYROS and tyros_open:
                    if ships[TYROS * MAX_SEATS + seat] >= SHIP_LIMIT:
                        continue
                elif space_ships[space] >= SHIP_LIMIT:
                    continue
            by_have = cells[colour]
            if by_have is None:
                by_have = cells[colour] = [[None] * (steps + 1) for _ in range(steps + 1)]
            have = hand[colour]
            by_wilds = by_have[have if have < steps else steps]
            found = by_wilds[wilds if wilds < steps else steps]
            if found is None:
                found = by_wilds[wilds if wilds < steps else steps] = _move_actions(
                    start, end, colour, steps, have, wilds
                )
            if every:
                out.extend(found)
            else:
                out.append(found[0])


def _cities(
    state: GameState,
    seat: Seat,
    hand: CardCounts,
    ports: tuple[int, ...],
    out: list[Action],
    every: bool = True,
) -> None:
    wilds = hand[WILD]
    if not state.city_supply[seat]:
        return
    board = state.board
    port_space, space_ports = board.port_space, board.space_ports
    ships, chips, cities = state.ships, state.chips, state.cities
    done = set()
    for start in ports:
        space = port_space[start]
        colour = chips[space]
        if colour < 0 or cities[space] >= 0 or space in done:
            continue
        done.add(space)
        mine = sum(ships[port * MAX_SEATS + seat] for port in space_ports[space])
        if state.space_ships[space] != mine:  # another player has a ship there
            continue
        cost = CITY_COST[1] if mine >= 2 else CITY_COST[0]
        have = hand[colour]
        for port in space_ports[space]:
            if ships[port * MAX_SEATS + seat]:
                found = _city_actions(
                    space,
                    port,
                    colour,
                    cost,
                    have if have < cost else cost,
                    wilds if wilds < cost else cost,
                )
                if every:
                    out.extend(found)
                elif found:
                    out.append(found[0])


@lru_cache(maxsize=1 << 12)
def _city_actions(
    space: int, port: int, colour: int, cost: int, have: int, wilds: int
) -> tuple[Action, ...]:
    pays = colour_payments(colour, cost, have, wilds)
    return pooled((K_CITY, space, port, *pay) for pay in pays)


def _ship_actions_in(state: GameState, seat: Seat, space: int) -> tuple[Action, ...]:
    """Every ship ``seat`` may build in ``space`` now, with every way to pay."""
    hand = state.hands[seat]
    if not state.ship_supply[seat]:
        return ()
    owner = state.cities[space]
    if space == TYROS and owner < 0:  # Tyros's one port has its id
        count = state.space_ships[TYROS] + 1
        if state.ships[TYROS * MAX_SEATS + seat] >= SHIP_LIMIT or sum(hand) < count:
            return ()
        return _any_colour_ships(space, capped(hand, count), count)
    if owner != seat:
        return ()
    present = state.space_ships[space]
    if present >= SHIP_LIMIT:
        return ()
    return _colour_ships(space, state.chips[space], present, hand)


@lru_cache(maxsize=1 << 14)
def _any_colour_ships(space: int, hand: CardCounts, count: int) -> tuple[Action, ...]:
    """Tyros without a city: ``count`` cards of any colours."""
    return pooled((K_SHIP, space, *pay) for pay in submultisets(hand, count))


@lru_cache(maxsize=1 << 14)
def _colour_ships(space: int, colour: int, present: int, hand: CardCounts) -> tuple[Action, ...]:
    """One card of the colour with no ship there; two, one of them of the colour, beside one."""
    if present == 0:
        pays = colour_payments(colour, SHIP_COST[0], hand[colour], hand[WILD])
    else:
        pays = tuple(
            pay
            for pay in submultisets(hand, SHIP_COST[1])
            if pay[colour] + pay[WILD] >= SHIP_CARDS_OF_COLOUR
        )
    return pooled((K_SHIP, space, *pay) for pay in pays)


def _ships(state: GameState, seat: Seat, out: list[Action]) -> None:
    if not state.ship_supply[seat]:
        return
    cities = state.cities
    if cities[TYROS] < 0:
        out.extend(_ship_actions_in(state, seat, TYROS))
    # The seat's cities, found by C-level scans: as many as it has built.
    space = -1
    for _ in range(CITIES_PER_PLAYER - state.city_supply[seat]):
        space = cities.index(seat, space + 1)
        out.extend(_ship_actions_in(state, seat, space))


@lru_cache(maxsize=1 << 12)
def _bank_draws(hand: CardCounts, most: int) -> tuple[Action, ...]:
    return pooled(
        (K_BANK_DRAW, *pay) for size in range(1, most + 1) for pay in submultisets(hand, size)
    )


@lru_cache(maxsize=1 << 13)
def _bank_picks(hand: CardCounts, take: int) -> tuple[Action, ...]:
    return pooled((K_BANK_PICK, take, *pay) for pay in submultisets(hand, BANK_PICK_COST))


def _bank_limits(state: GameState) -> tuple[int, int]:
    """(the most cards a bank draw may take, the bit set of the kinds a pick may take)."""
    a, b, c, d, e = state.discard
    return (
        min(BANK_DRAW_MAX, len(state.draw_pile)),
        (a > 0) | (b > 0) << 1 | (c > 0) << 2 | (d > 0) << 3 | (e > 0) << 4,
    )


_BANK_TRADES: dict[int, tuple[Action, ...]] = {}
""":func:`_bank_actions` by one int of its arguments: cheaper to make and hash than tuples."""


def _bank_trades(state: GameState, hand: CardCounts) -> tuple[Action, ...]:
    """Both bank trades the hand allows now, in one cached tuple."""
    # capped(hand, _BANK_CAP) and _bank_limits, inlined: every enumeration comes here
    cap = _BANK_CAP  # a local: as cheap to read as a literal
    a, b, c, d, e = hand
    a, b, c, d, e = (
        (a if a < cap else cap),
        (b if b < cap else cap),
        (c if c < cap else cap),
        (d if d < cap else cap),
        (e if e < cap else cap),
    )
    most = len(state.draw_pile)
    if most > BANK_DRAW_MAX:
        most = BANK_DRAW_MAX
    p, q, r, s, t = state.discard
    takes = (p > 0) | (q > 0) << 1 | (r > 0) << 2 | (s > 0) << 3 | (t > 0) << 4
    key = (((((a << 2 | b) << 2 | c) << 2 | d) << 2 | e) << 2 | most) << 5 | takes
    found = _BANK_TRADES.get(key)
    if found is None:
        if len(_BANK_TRADES) >= 1 << 15:
            _BANK_TRADES.clear()
        found = _BANK_TRADES[key] = _bank_actions((a, b, c, d, e), most, takes)
    return found


def bank_trades(state: GameState, seat: Seat) -> list[tuple[int, int, int]]:
    """The bank trades of the seat to act, one per trade whatever it pays: ``(K_BANK_DRAW, n,
    n)`` to pay and draw ``n`` cards, ``(K_BANK_PICK, card, 3)`` to take ``card`` from the
    discards. Any cards of the hand, as many as the last number, pay for it (build the action
    with :func:`.actions.bank_draw` or :func:`.actions.bank_pick`); :func:`card_actions` lists
    the same trades with every payment.

    >>> from .rules import new_game
    >>> from .state import Options
    >>> state = new_game(Options(players=4, seed=1))
    >>> state.hands[0] = (1, 1, 0, 0, 0)
    >>> bank_trades(state, 0)
    [(6, 1, 1), (6, 2, 2)]
    """
    cards = sum(state.hands[seat])
    most, takes = _bank_limits(state)
    out = [(K_BANK_DRAW, size, size) for size in range(1, min(most, cards) + 1)]
    if cards >= BANK_PICK_COST:
        out.extend((K_BANK_PICK, take, BANK_PICK_COST) for take in range(5) if takes >> take & 1)
    return out


def _bank_actions(three: CardCounts, most: int, takes: int) -> tuple[Action, ...]:
    """Both bank trades in one cached tuple (one lookup per enumeration): draws of up to
    ``most`` cards and picks of each kind in the bit set ``takes``. ``three`` is the hand
    capped at ``_BANK_CAP`` of a kind, all that these trades can use.
    """
    out = list(_bank_draws(three, most)) if most else []
    if sum(three) >= BANK_PICK_COST:
        for take in range(5):
            if takes >> take & 1:
                out.extend(_bank_picks(three, take))
    return tuple(out)


@lru_cache(maxsize=1 << 11)  # 4**5 hands capped at 3: every one fits
def _keeps(hand: CardCounts) -> tuple[Action, ...]:
    """Every choice of at most 3 cards to keep (RULES.md E1), the fullest first."""
    return tuple(
        (K_KEEP, *keep) for size in range(KEEP_CARDS, -1, -1) for keep in submultisets(hand, size)
    )


def check_action(state: GameState, seat: Seat, given: object) -> Action:
    """``given`` as an action, if ``seat`` may take it now; else raise
    :class:`IllegalActionError`. ``given`` may be anything at all (what a client sent): it
    is an :data:`Action` only once checked (compiled, a typed argument would be checked
    on entry, and refused with a ``TypeError`` instead)."""
    if state.phase == P_OVER:
        raise IllegalActionError(Reason.GAME_OVER, "the game is over")
    if (
        not isinstance(given, tuple)
        or not given
        or not all(type(x) is int or isinstance(x, Kind) for x in given)
        or not 0 <= given[0] < len(Kind)
        or len(given) != LENGTH[given[0]]
    ):
        raise IllegalActionError(Reason.MALFORMED, "not an action")
    action: Action = given
    if not isinstance(seat, int) or seat not in seats_to_act(state):
        raise IllegalActionError(Reason.NOT_YOUR_TURN, f"seat {seat} is not to act now")
    if action[0] == Kind.PROPOSE:
        found = proposal_problem(state, seat, action)
        if found is not None:
            raise IllegalActionError(*found)
        return action
    if action[0] == Kind.COUNTER:
        found = counter_problem(state, seat, action)
        if found is not None:
            raise IllegalActionError(*found)
        return action
    if state.phase == P_ACTIONS:  # only the family the action belongs to
        candidates = card_actions(state, seat, action[0])
    else:
        candidates = legal_actions(state, seat)
    if action in candidates:
        return action
    name = KIND_NAMES[Kind(action[0])]
    if action[0] not in PHASE_KINDS[state.phase]:
        allowed = ", ".join(sorted(KIND_NAMES[k] for k in PHASE_KINDS[state.phase]))
        raise IllegalActionError(
            Reason.WRONG_PHASE,
            f"you cannot {name} in the {state.phase.name.lower()} phase; "
            f"its actions are: {allowed}",
        )
    pay = payment(action)
    if min(pay) < 0 or not covers(state.hands[seat], pay):
        raise IllegalActionError(Reason.CANNOT_AFFORD, short_of(state.hands[seat], pay))
    raise IllegalActionError(Reason.ILLEGAL, f"that {name} is not allowed now")


def short_of(hand: CardCounts, pay: CardCounts) -> str:
    """Why ``hand`` cannot pay ``pay``, card by card (each kind paid is its own: a wild
    paid as a wild is not a colour).

    >>> short_of((0, 1, 0, 0, 1), (0, 1, 0, 0, 2))
    'you do not hold those cards: you hold 1 wild, not 2'
    """
    if min(pay) < 0:
        return "you do not hold those cards: a count of cards is below zero"
    short = [
        f"you hold {hand[card]} {CARD_NAMES[card]}, not {pay[card]}"
        for card in range(len(pay))
        if pay[card] > hand[card]
    ]
    return "you do not hold those cards: " + "; ".join(short)
