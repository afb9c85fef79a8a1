"""Invariants every reachable game state obeys, and an independent score recount.

Everything here is written from the rulebook (seeds/000_...txt), RULINGS.md and
BOARD.md, reading the state's plain fields; nothing calls the engine's rules or
scoring code, so a bug there cannot hide itself.

- :func:`check_invariants` checks one state thoroughly (components conserved,
  ship and city limits, empires connected, phase bookkeeping).
- :func:`check_chips_kept` checks that no empire chip changed or vanished
  since an earlier state.
- :class:`FastChecker` is a cheap subset, for checking after every action of
  thousands of games.
- :func:`recount` scores a finished game from scratch; :func:`recount_winners`
  names the winners; :func:`check_score` compares both with ``state.score``.
- :func:`expected_actions` lists every legal action of a seat from the rules, to
  compare with ``legal_actions``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NoReturn

from tyros_protocol.board import TYROS
from tyros_protocol.cards import COLOUR_NAMES
from tyros_rules.state import GameState, Phase

# From the rulebook ("Game Materials", "Deal Commerce Cards") and RULINGS.md "Components".
CARDS_PER_COLOUR = 14
WILD_CARDS = 4
TOTAL_CARDS = 60
TILES = 32
SHIPS_EACH = 10
CITIES_EACH = 10
SHIP_LIMIT = 2
STRIDE = 4
"""``state.ships[port * 4 + seat]`` (the engine's documented layout)."""

# Victory points table (rulebook, "Ending the Game and Determining Victory").
CITY_POINTS = (12, 10, 9, 8)
SHIP_POINTS = (6, 5, 4, 3)
BONUS = 7


class InvariantError(AssertionError):
    """A state breaks a rule that must always hold."""


def _fail(message: str) -> NoReturn:
    raise InvariantError(message)


# Components ------------------------------------------------------------------------


def card_totals(state: GameState) -> list[int]:
    """Cards of each kind in hands, draw pile and discard pile together."""
    totals = list(state.discard)
    for hand in state.hands:
        for kind in range(5):
            totals[kind] += hand[kind]
    for card in state.draw_pile:
        totals[card] += 1
    return totals


def _check_cards(state: GameState) -> None:
    for seat, hand in enumerate(state.hands):
        if len(hand) != 5 or min(hand) < 0:
            _fail(f"seat {seat} holds an impossible hand {hand}")
    if len(state.discard) != 5 or min(state.discard) < 0:
        _fail(f"impossible discard pile {state.discard}")
    if any(card not in range(5) for card in state.draw_pile):
        _fail(f"draw pile holds a card that does not exist: {state.draw_pile}")
    totals = card_totals(state)
    expected = [CARDS_PER_COLOUR] * 4 + [WILD_CARDS]
    if totals != expected or sum(totals) != TOTAL_CARDS:
        _fail(f"commerce cards not conserved: {totals} instead of {expected}")


def _check_tiles(state: GameState) -> None:
    seen: list[int] = []
    for seat, tiles in enumerate(state.tiles):
        if list(tiles) != sorted(tiles):
            _fail(f"seat {seat}'s tiles are not sorted: {tiles}")
        if not set(state.revealed[seat]) <= set(tiles):
            _fail(f"seat {seat} has revealed tiles it does not hold: {state.revealed[seat]}")
        seen.extend(tiles)
    seen.extend(state.tile_pile)
    seen.extend(state.removed_tiles)
    if sorted(seen) != list(range(1, TILES + 1)):
        duplicates = sorted({t for t in seen if seen.count(t) > 1})
        missing = sorted(set(range(1, TILES + 1)) - set(seen))
        _fail(f"map tiles not conserved: duplicated {duplicates}, missing {missing}")
    # A tile leaves the game exactly when its space gets a chip (setup or expansion), so
    # the removed tiles are the chipped numbered spaces, and a held tile's space is empty.
    chipped = {space for space in range(1, len(state.chips)) if state.chips[space] >= 0}
    if set(state.removed_tiles) != chipped:
        _fail(
            f"removed tiles {sorted(state.removed_tiles)} differ from the chipped spaces "
            f"{sorted(chipped)}"
        )


def _check_chips(state: GameState) -> None:
    board = state.board
    chips = state.chips
    if len(chips) != board.space_count or any(c not in (-1, 0, 1, 2, 3) for c in chips):
        _fail(f"impossible chips {chips}")
    # Tyros takes the colour of the first of 31/32 to be coloured, and only then.
    around = [chips[s] for s in board.neighbours[TYROS] if chips[s] >= 0]
    if chips[TYROS] < 0 and around:
        _fail("31 or 32 has a chip but Tyros has none")
    if chips[TYROS] >= 0 and chips[TYROS] not in around:
        _fail(f"Tyros has colour {chips[TYROS]} but neither 31 nor 32 has it")
    # Empires grow only into neighbouring spaces and chips never change, so every
    # empire is one orthogonally connected group.
    for colour in range(4):
        spaces = [s for s in range(board.space_count) if chips[s] == colour]
        if not spaces:
            continue
        reached = {spaces[0]}
        todo = [spaces[0]]
        while todo:
            here = todo.pop()
            for near in board.neighbours[here]:
                if chips[near] == colour and near not in reached:
                    reached.add(near)
                    todo.append(near)
        if len(reached) != len(spaces):
            _fail(f"the {COLOUR_NAMES[colour]} empire is not connected: {sorted(spaces)}")


def _check_pieces(state: GameState) -> None:
    board = state.board
    n = state.players
    ships = state.ships
    chips = state.chips
    cities = state.cities
    if len(ships) < board.port_count * STRIDE or min(ships) < 0:
        _fail("negative or missing ship counts")
    for port in range(board.port_count):
        for seat in range(n, STRIDE):
            if ships[port * STRIDE + seat]:
                _fail(f"ships of a seat that does not play, on {board.port_label(port)}")
    on_board = [0] * n
    for space in range(board.space_count):
        per_seat = [0] * n
        for port in board.space_ports[space]:
            for seat in range(n):
                per_seat[seat] += ships[port * STRIDE + seat]
        total = sum(per_seat)
        for seat in range(n):
            on_board[seat] += per_seat[seat]
        label = board.space_label(space)
        if state.space_ships[space] != total:
            _fail(f"space_ships says {state.space_ships[space]} ships in {label}, not {total}")
        if total and chips[space] < 0 and space != TYROS:
            _fail(f"ships on {label}, which has no empire chip")
        if space == TYROS and cities[TYROS] < 0:
            if max(per_seat) > SHIP_LIMIT:
                _fail(f"a player has more than 2 ships in Tyros: {per_seat}")
        elif total > SHIP_LIMIT:
            _fail(f"{total} ships in {label}")
        owner = cities[space]
        if owner != -1:
            if not 0 <= owner < n:
                _fail(f"city of a seat that does not play in {label}")
            if chips[space] < 0:
                _fail(f"a city in {label}, which has no empire chip")
    cities_built = [0] * n
    for owner in cities:
        if owner >= 0:
            cities_built[owner] += 1
    for seat in range(n):
        if state.ship_supply[seat] < 0 or state.city_supply[seat] < 0:
            _fail(f"seat {seat} has a negative supply")
        if on_board[seat] + state.ship_supply[seat] != SHIPS_EACH:
            _fail(
                f"seat {seat}: {on_board[seat]} ships on the board + "
                f"{state.ship_supply[seat]} in supply != {SHIPS_EACH}"
            )
        if cities_built[seat] + state.city_supply[seat] != CITIES_EACH:
            _fail(
                f"seat {seat}: {cities_built[seat]} cities built + "
                f"{state.city_supply[seat]} in supply != {CITIES_EACH}"
            )
    bonus = state.all_four_bonus
    if bonus != -1:
        colours = {chips[s] for s, owner in enumerate(cities) if owner == bonus}
        if not 0 <= bonus < n or len(colours) != 4:
            _fail(f"seat {bonus} has the all-four-empires bonus without cities in all four")


def _check_fleets(state: GameState) -> None:
    for seat in range(state.players):
        fleet = tuple(p for p in range(state.board.port_count) if state.ships[p * STRIDE + seat])
        if state.fleets[seat] != fleet:
            _fail(f"fleets[{seat}] is {state.fleets[seat]}, not {fleet}")


def _check_phase(state: GameState) -> None:
    n = state.players
    phase = state.phase
    if not 0 <= state.current < n or not 0 <= state.starting_seat < n:
        _fail(f"current seat {state.current} / starting seat {state.starting_seat} out of range")
    if (phase == Phase.TRADE) != (state.trade is not None):
        _fail(f"phase {phase.name} with trade {state.trade}")
    if (phase == Phase.GIVE_CARD) != (state.owed_to >= 0):
        _fail(f"phase {phase.name} with a card owed to {state.owed_to}")
    if phase == Phase.GIVE_CARD:
        owed = state.owed_to
        if owed == state.current or not 0 <= owed < n:
            _fail(f"seat {state.current} owes a card to seat {owed}")
        if owed not in state.cities:
            _fail(f"a card is owed to seat {owed}, which has no city")
        if not any(state.hands[state.current]):
            _fail("a mover with no cards is asked to give one")
    if phase == Phase.KEEP:
        if not any(state.keep_pending):
            _fail("keep phase with nobody to keep cards")
        for seat in range(n):
            if state.keep_pending[seat] and sum(state.hands[seat]) <= 3:
                _fail(f"seat {seat} must keep cards but holds {sum(state.hands[seat])}")
    elif any(state.keep_pending):
        _fail(f"seats wait to keep cards in phase {phase.name}")
    if phase == Phase.EXPAND and not state.tiles[state.current]:
        _fail(f"seat {state.current} must expand but holds no tile")
    if (phase == Phase.OVER) != (state.score is not None):
        _fail(f"phase {phase.name} with score {'set' if state.score else 'unset'}")
    if phase == Phase.OVER and all(state.tiles):
        _fail("the game ended while every player still holds map tiles")
    in_actions = phase in (Phase.ACTIONS, Phase.TRADE, Phase.GIVE_CARD)
    if in_actions and not 0 <= state.passes < n:
        _fail(f"{state.passes} consecutive passes and the round goes on")


def check_invariants(state: GameState) -> None:
    """Raise :class:`InvariantError` if ``state`` breaks a rule that always holds."""
    _check_cards(state)
    _check_tiles(state)
    _check_chips(state)
    _check_pieces(state)
    _check_fleets(state)
    _check_phase(state)


def check_chips_kept(before: Sequence[int], after: Sequence[int]) -> None:
    """Empire chips never move or change colour: every chip in ``before`` is in ``after``."""
    for space, colour in enumerate(before):
        if colour >= 0 and after[space] != colour:
            _fail(f"the chip on space {space} changed from {colour} to {after[space]}")


class FastChecker:
    """A cheap check after every action of a game: what one action can break.

    It keeps a snapshot of the previous state's pieces and re-checks the board only
    when ships or cities moved, and the draw pile only when it changed length; cards in
    hands, the tile count and chips kept are checked every time. Connectivity of the
    empires and the phase bookkeeping are left to :func:`check_invariants`.
    """

    def __init__(self, state: GameState) -> None:
        board = state.board
        self.players = state.players
        self.deck = (CARDS_PER_COLOUR,) * 4 + (WILD_CARDS,)
        self.space_bases = [
            tuple(p * STRIDE for p in board.space_ports[space])
            for space in range(1, board.space_count)
        ]
        self.tyros_base = board.space_ports[TYROS][0] * STRIDE
        self.chips = state.chips[:]
        self.ships: list[int] = []
        self.cities: list[int] = []
        self.pile_key = (-1, -1)
        self.pile_counts = (0, 0, 0, 0, 0)
        self(state)

    def __call__(self, state: GameState) -> None:
        self._cards(state)
        if sum(map(len, state.tiles)) + len(state.tile_pile) + len(state.removed_tiles) != TILES:
            _fail("the number of map tiles changed")
        chips = state.chips
        if chips != self.chips:
            check_chips_kept(self.chips, chips)
            self.chips = chips[:]
        if state.ships != self.ships or state.cities != self.cities:
            self._pieces(state)
            _check_fleets(state)
            self.ships = state.ships[:]
            self.cities = state.cities[:]

    def _cards(self, state: GameState) -> None:
        d = state.discard
        o, y, g, v, w = d
        if min(d) < 0:
            _fail(f"negative discard pile {d}")
        for hand in state.hands:
            if min(hand) < 0:
                _fail(f"negative hand {hand}")
            o += hand[0]
            y += hand[1]
            g += hand[2]
            v += hand[3]
            w += hand[4]
        pile = state.draw_pile
        # Within a round the pile only loses cards from its top; a new round reshuffles.
        key = (state.round, len(pile))
        if key != self.pile_key:
            self.pile_key = key
            self.pile_counts = (
                pile.count(0),
                pile.count(1),
                pile.count(2),
                pile.count(3),
                pile.count(4),
            )
            if sum(self.pile_counts) != len(pile):
                _fail(f"the draw pile holds a card that does not exist: {pile}")
        p = self.pile_counts
        totals = (o + p[0], y + p[1], g + p[2], v + p[3], w + p[4])
        if totals != self.deck:
            _fail(f"commerce cards not conserved: {totals} instead of {self.deck}")

    def _pieces(self, state: GameState) -> None:
        ships = state.ships
        cities = state.cities
        chips = state.chips
        players = self.players
        if min(ships) < 0:
            _fail("a negative ship count")
        for space, bases in enumerate(self.space_bases, start=1):
            total = 0
            for base in bases:
                total += ships[base] + ships[base + 1] + ships[base + 2] + ships[base + 3]
            if total != state.space_ships[space]:
                _fail(f"space_ships is out of step on space {space}")
            if total > SHIP_LIMIT or (total and chips[space] < 0):
                _fail(f"{total} ships on space {space} (chip {chips[space]})")
            if cities[space] >= 0 and chips[space] < 0:
                _fail(f"a city on space {space}, which has no empire chip")
        base = self.tyros_base
        in_tyros = ships[base : base + STRIDE]
        if sum(in_tyros) != state.space_ships[TYROS]:
            _fail("space_ships is out of step in Tyros")
        if cities[TYROS] < 0:
            if max(in_tyros) > SHIP_LIMIT:
                _fail(f"a player has more than 2 ships in Tyros: {in_tyros}")
        elif sum(in_tyros) > SHIP_LIMIT:
            _fail(f"more than 2 ships in Tyros, which has a city: {in_tyros}")
        on_board = [sum(ships[seat::STRIDE]) for seat in range(STRIDE)]
        built = [cities.count(seat) for seat in range(players)]
        for seat in range(players):
            ship_supply = state.ship_supply[seat]
            city_supply = state.city_supply[seat]
            if ship_supply < 0 or city_supply < 0:
                _fail(f"seat {seat} has a negative supply")
            if on_board[seat] + ship_supply != SHIPS_EACH:
                _fail(
                    f"seat {seat}: {on_board[seat]} ships on the board + {ship_supply} "
                    f"in supply != {SHIPS_EACH}"
                )
            if built[seat] + city_supply != CITIES_EACH:
                _fail(
                    f"seat {seat}: {built[seat]} cities built + {city_supply} "
                    f"in supply != {CITIES_EACH}"
                )
        if any(on_board[players:]):
            _fail("ships of a seat that does not play")


# Scoring, recounted from the rulebook -----------------------------------------------


def _first_all_four(state: GameState) -> int:
    """The first seat to have cities in all four empires, from the game log if it has one."""
    if state.log is None:
        return state.all_four_bonus
    board = state.board
    colours: list[set[int]] = [set() for _ in range(state.players)]
    for event in state.log:
        if event.get("type") != "action" or event["action"].get("kind") != "city":
            continue
        seat = event["seat"]
        # Chips never change, so the final chip is the colour the city was built in.
        colours[seat].add(state.chips[board.parse_space(event["action"]["space"])])
        if len(colours[seat]) == 4:
            return int(seat)
    return -1


def _space_points(state: GameState) -> tuple[list[dict[int, int]], list[int]]:
    """Per seat, {colour: city and ship control points}; and the colour of each rank."""
    board = state.board
    n = state.players
    chips = state.chips
    sizes = [sum(1 for c in chips if c == colour) for colour in range(4)]
    # Largest first; equal sizes in the order orange, yellow, green, violet.
    by_rank = sorted(range(4), key=lambda colour: (-sizes[colour], colour))
    rank_of = {colour: rank for rank, colour in enumerate(by_rank)}
    points: list[dict[int, int]] = [dict.fromkeys(range(4), 0) for _ in range(n)]
    for space in range(board.space_count):
        colour = chips[space]
        if colour < 0:
            continue  # no empire: nothing to score
        rank = rank_of[colour]
        owner = state.cities[space]
        if owner >= 0:
            points[owner][colour] += CITY_POINTS[rank]
            continue  # ships in a space with a city are removed
        present = {
            seat
            for seat in range(n)
            for port in board.space_ports[space]
            if state.ships[port * STRIDE + seat]
        }
        if len(present) == 1:  # several players: every ship is removed
            points[present.pop()][colour] += SHIP_POINTS[rank]
    return points, by_rank


def recount(state: GameState) -> dict[int, int]:
    """Every seat's total, counted from the rulebook (seat -> points)."""
    n = state.players
    points, _ = _space_points(state)
    totals = {seat: sum(points[seat].values()) for seat in range(n)}
    for colour in range(4):
        counts = [
            sum(
                1
                for space, owner in enumerate(state.cities)
                if owner == seat and state.chips[space] == colour
            )
            for seat in range(n)
        ]
        best = max(counts)
        if best > 0 and counts.count(best) == 1:
            totals[counts.index(best)] += BONUS
    first = _first_all_four(state)
    if first >= 0:
        totals[first] += BONUS
    return totals


def recount_winners(state: GameState) -> list[int]:
    """Most points; a tie goes to most points from the largest empire's spaces; else shared."""
    totals = recount(state)
    points, by_rank = _space_points(state)
    top = max(totals.values())
    tied = [seat for seat, total in totals.items() if total == top]
    largest = by_rank[0]
    best = max(points[seat][largest] for seat in tied)
    return [seat for seat in tied if points[seat][largest] == best]


def check_score(state: GameState) -> None:
    """The engine's score sheet agrees with the recount (totals and winners)."""
    sheet = state.score
    if sheet is None:
        _fail("the game is over but has no score sheet")
    expected = recount(state)
    got = {int(p["seat"]): int(p["total"]) for p in sheet["players"]}
    if got != expected:
        _fail(f"score sheet totals {got} differ from the recount {expected}")
    winners = sorted(recount_winners(state))
    if sorted(sheet["winners"]) != winners:
        _fail(f"score sheet winners {sheet['winners']} differ from the recount {winners}")
    if _first_all_four(state) != state.all_four_bonus:
        _fail(
            f"the all-four bonus went to {state.all_four_bonus}, "
            f"the log says {_first_all_four(state)}"
        )


# Legal actions, listed from the rules ------------------------------------------------
#
# Action tuples follow the layouts documented in tyros_rules.actions; kinds:
PASS, EXPAND, RETURN_TILE, MOVE, CITY, SHIP, BANK_DRAW, BANK_PICK = range(8)
PROPOSE, ANSWER, COMPLETE, WITHDRAW, GIVE_CARD, KEEP, COUNTER = range(8, 15)
WILD = 4


@lru_cache(maxsize=4096)
def choices(hand: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct multiset of ``size`` cards from ``hand``."""
    out: list[tuple[int, ...]] = []

    def walk(kind: int, left: int, chosen: tuple[int, ...]) -> None:
        if kind == 5:
            if left == 0:
                out.append(chosen)
            return
        for take in range(min(hand[kind], left) + 1):
            walk(kind + 1, left - take, (*chosen, take))

    walk(0, size, ())
    return tuple(out)


@lru_cache(maxsize=4096)
def colour_payments(hand: tuple[int, ...], colour: int, count: int) -> tuple[tuple[int, ...], ...]:
    """Every way to pay ``count`` cards of ``colour``, each card that colour or wild."""
    return tuple(pay for pay in choices(hand, count) if pay[colour] + pay[WILD] == count)


def expected_actions(state: GameState, seat: int) -> set[tuple[int, ...]]:
    """Every action ``seat`` may take now, from the rulebook, RULINGS.md and RULES.md."""
    from tyros_rules.state import ACCEPTED, COUNTERED, PENDING

    board = state.board
    n = state.players
    hand = state.hands[seat]
    phase = state.phase
    out: set[tuple[int, ...]] = set()
    if phase == Phase.OVER:
        return out
    if phase == Phase.KEEP:
        if state.keep_pending[seat]:
            # At most 3, of the player's choice (RULINGS.md; RULES.md E1).
            out.update((KEEP, *keep) for size in range(4) for keep in choices(hand, size))
        return out
    if phase == Phase.TRADE:
        trade = state.trade
        assert trade is not None
        if seat == state.current:
            out.add((WITHDRAW,))
            out.update((COMPLETE, other) for other in range(n) if state.answers[other] == ACCEPTED)
            for other in range(n):  # a counter-offer the proposer can pay (RULES.md A8)
                terms = state.counters[other]
                countered = state.answers[other] == COUNTERED and terms is not None
                if countered and all(hand[k] >= terms[k] for k in range(5)):  # type: ignore[index]
                    out.add((COMPLETE, other))
        elif state.answers[seat] == PENDING:
            out.add((ANSWER, 0))
            if all(hand[k] >= trade[7 + k] for k in range(5)):
                out.add((ANSWER, 1))
            # The listed counters: one of its cards for one card of another kind, not the
            # offer's own terms (others are legal but not listed, as proposals).
            for offered in range(5):
                for wanted in range(5):
                    one_of = [tuple(int(k == c) for k in range(5)) for c in (wanted, offered)]
                    terms = (*one_of[0], *one_of[1])
                    if hand[offered] and wanted != offered and terms != tuple(trade[2:12]):
                        out.add((COUNTER, *terms))
        return out
    if seat != state.current:
        return out
    chips = state.chips
    if phase == Phase.EXPAND:
        for tile in state.tiles[seat]:
            if chips[tile] < 0:
                out.update(
                    (EXPAND, tile, chips[near])
                    for near in board.neighbours[tile]
                    if chips[near] >= 0
                )
        if not out:
            out.update((RETURN_TILE, tile) for tile in state.tiles[seat])
        return out
    if phase == Phase.GIVE_CARD:
        out.update((GIVE_CARD, card) for card in range(5) if hand[card])
        return out

    ships = state.ships

    def mine(space: int) -> int:
        return sum(ships[port * STRIDE + seat] for port in board.space_ports[space])

    def everyone(space: int) -> int:
        return sum(ships[port * STRIDE + s] for port in board.space_ports[space] for s in range(n))

    out.add((PASS,))
    # A. Move: to any other port whose space has a chip, one card of its colour per step.
    for start in range(board.port_count):
        if not ships[start * STRIDE + seat]:
            continue
        for end in range(board.port_count):
            steps = board.distance[start][end]
            space = board.port_space[end]
            if steps <= 0 or chips[space] < 0 or hand[chips[space]] + hand[WILD] < steps:
                continue
            if space != board.port_space[start]:
                if space == TYROS and state.cities[TYROS] < 0:
                    if mine(TYROS) >= SHIP_LIMIT:
                        continue
                elif everyone(space) >= SHIP_LIMIT:
                    continue
            for pay in colour_payments(hand, chips[space], steps):
                out.add((MOVE, start, end, *pay))
    # B. City: sole ship control of a chipped space without a city; 5 cards, 4 with 2 ships.
    if state.city_supply[seat]:
        for space in range(board.space_count):
            have = mine(space)
            if chips[space] < 0 or state.cities[space] >= 0 or not have or everyone(space) > have:
                continue
            for pay in colour_payments(hand, chips[space], 4 if have >= 2 else 5):
                for port in board.space_ports[space]:
                    if ships[port * STRIDE + seat]:
                        out.add((CITY, space, port, *pay))
    # C. Ship: in Tyros while it has no city, or by one's own city.
    if state.ship_supply[seat]:
        for space in range(board.space_count):
            present = everyone(space)
            if space == TYROS and state.cities[TYROS] < 0:
                if mine(TYROS) < SHIP_LIMIT:
                    out.update((SHIP, TYROS, *pay) for pay in choices(hand, present + 1))
            elif state.cities[space] == seat:
                colour = chips[space]
                if present == 0:
                    out.update((SHIP, space, *pay) for pay in colour_payments(hand, colour, 1))
                elif present == 1:
                    out.update(
                        (SHIP, space, *pay)
                        for pay in choices(hand, 2)
                        if pay[colour] + pay[WILD] >= 1
                    )
    # D. Bank: 1-3 for as many from the draw pile; 3 for one from the discards.
    for size in range(1, min(3, len(state.draw_pile)) + 1):
        out.update((BANK_DRAW, *pay) for pay in choices(hand, size))
    for take in range(5):
        if state.discard[take]:
            out.update((BANK_PICK, take, *pay) for pay in choices(hand, 3))
    # E. The canonical proposals (RULES.md A7): one card for one of another kind, to all.
    if not state.trade_tried:
        others = sum(1 << s for s in range(n) if s != seat)
        for give in range(5):
            for get in range(5):
                if hand[give] and get != give:
                    offer = tuple(int(k == give) for k in range(5))
                    ask = tuple(int(k == get) for k in range(5))
                    out.add((PROPOSE, others, *offer, *ask))
    return out
