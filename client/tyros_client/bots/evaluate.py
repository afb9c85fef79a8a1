"""A fast heuristic value of a Tyros position: each seat's expected final points.

:func:`evaluate` adds up, for every seat,

- **the board**: each city and each ship-controlled space at the points its
  empire is expected to be worth at the end. Empires are ranked by their
  expected final size (today's size plus a share of the tiles still to be
  played, in proportion to the free spaces along each border), with a spread
  that narrows as the end nears; a city's value is its expected rank points,
  not just today's. A space held by ships counts with a risk of being
  contested before the end. Majorities and the all-four-empires bonus count
  with a confidence that grows with the lead and as the game runs out;
- **the hand**: what its cards can still buy. :class:`Plan` lists the seat's
  purchases (a city where its ships stand alone; a ship moved, or built and
  moved, to a free space of an empire) with their gain and their price in
  cards of a colour, and :meth:`Plan.hand_value` spends the hand on the most
  efficient of them, counts unfinished ones in part, and gives the cards left
  over a small value if they can be kept for another round.

How close the game is to its end (:func:`.outlook.future`) scales everything: in the
last card-action phase cards are worth only what they buy now, and once the
game is over the value is exactly the score sheet's total.

>>> from tyros_rules import Options, new_game
>>> state = new_game(Options(players=4, seed=1))
>>> values = evaluate(state)
>>> len(values), all(v > 0 for v in values)
(4, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tyros_protocol.board import TYROS, Board
from tyros_protocol.cards import WILD, CardCounts
from tyros_rules import BONUS, MAX_SEATS, GameState, Phase

from .outlook import COLOURS, all_four_share, empire_values, future, hold_factor, majority_share

ANY = 4
"""Index of the any-colour part of a purchase's price."""

# Weights (points). They were set by hand and checked in arena games.
HAND_WEIGHT = 1.0
"""What a hand's value counts for beside the board's points (``bench/calibration.py`` weighs
them against final scores)."""
CITY_OPTION = 0.3
"""Share of a city's extra over ship control counted for a space held by ships alone while
more cards are to be dealt."""
TYROS_UNCOLOURED = 0.3
"""Share of ship points for holding an uncoloured Tyros that may still be coloured."""
AFFORDABLE_NOW = 0.8
"""Share of a purchase's gain counted while its cards are in hand and can be spent this round."""
AFFORDABLE_NEXT = 0.65
"""The same while choosing the cards to keep: the purchase waits for next round."""
PARTIAL_MORE_ROUNDS = 0.6
"""Share of an unaffordable purchase's gain for holding its price, times the square of the
share of the price held (more rounds to come)."""
PARTIAL_LAST_ROUND = 0.3
"""The same in the last card-action phase (only bank trades and trades can complete it)."""
PARTIAL_NEXT = 0.7
"""The same while keeping 3 cards, times the share held (next round's deal likely completes
it)."""
KEPT_CARD = 0.5
"""A leftover card that can be kept for next round."""
SPARE_CARD = 0.1
"""A leftover card beyond those (bank-trade fodder)."""
LAST_ROUND_CARD = 0.05
MAX_PURCHASES = 30
"""Purchases a plan considers (the most efficient)."""


# The analysis of one position ------------------------------------------------------


class Analysis:
    """Everything :func:`evaluate` needs about one state, computed once for all seats."""

    __slots__ = (
        "alone",
        "best_other",
        "city_counts",
        "city_spaces",
        "city_value",
        "colours_of",
        "hand_weight",
        "held_alone",
        "held_value",
        "hold",
        "own",
        "phases_left",
        "points",
        "ship_spaces",
        "ship_value",
        "state",
        "targets",
        "tiles_left",
        "total_ships",
    )

    def __init__(self, state: GameState, hand_weight: float = HAND_WEIGHT) -> None:
        self.state = state
        self.hand_weight = hand_weight
        """What a hand's value counts for beside the board's points (see :data:`HAND_WEIGHT`)."""
        self._forecast()
        # Each seat's expected points, added up in this order: cities, spaces held by
        # ships, majorities and the all-four-empires bonus.
        points = self.points = [0.0] * state.players
        self._cities(points)
        self._count_ships()
        self._holdings(points)
        self._bonuses(points)

    def _forecast(self) -> None:
        """How far the game goes, and what a city and a held space are worth per empire."""
        state = self.state
        self.tiles_left, self.phases_left = future(state)
        self.city_value, self.ship_value = empire_values(state, self.tiles_left)
        hold = self.hold = hold_factor(self.phases_left)
        deals = self.phases_left - (0 if state.phase == Phase.KEEP else 1)
        # A space held by ships may get a city once more cards are dealt.
        self.held_value = [
            self.ship_value[c] * hold
            + (CITY_OPTION * (self.city_value[c] - self.ship_value[c] * hold) if deals > 0 else 0.0)
            for c in range(COLOURS)
        ]

    def _cities(self, points: list[float]) -> None:
        """Each seat's cities per empire, at their expected value."""
        state = self.state
        players = state.players
        chips, city_value = state.chips, self.city_value
        counts = [[0] * COLOURS for _ in range(players)]
        spaces: list[list[int]] = [[] for _ in range(players)]
        for space, owner in enumerate(state.cities):
            if owner >= 0 and chips[space] >= 0:
                counts[owner][chips[space]] += 1
                points[owner] += city_value[chips[space]]
                spaces[owner].append(space)
        self.city_counts = counts
        self.city_spaces = spaces
        """Each seat's cities in an empire, by space (what a plan builds ships at)."""
        self.colours_of = [sum(1 for c in range(COLOURS) if counts[s][c]) for s in range(players)]

    def _count_ships(self) -> None:
        """Ships per seat and space, and in all."""
        state = self.state
        board = state.board
        ships, fleets = state.ships, state.fleets
        space_count = board.space_count
        port_space = board.port_space
        own = []
        for seat in range(state.players):
            row = [0] * space_count
            for port in fleets[seat]:  # the ports where the seat has ships
                row[port_space[port]] += ships[port * MAX_SEATS + seat]
            own.append(row)
        self.own = own
        self.ship_spaces = [
            sorted({port_space[port] for port in fleets[seat]}) for seat in range(state.players)
        ]
        """The spaces where each seat has ships, in order (a plan's sources, listed alike)."""
        self.total_ships = state.space_ships  # (read only)

    def _holdings(self, points: list[float]) -> None:
        """The seat holding each space by ships alone (no city), -1 if none, -2 if contested,
        at the value of holding it; and the free spaces a ship may be sent to, with what
        holding one is worth."""
        state = self.state
        board = state.board
        chips, cities = state.chips, state.cities
        own, total = self.own, self.total_ships
        held, ship_value, hold = self.held_value, self.ship_value, self.hold
        players = state.players
        alone = [-1] * board.space_count
        held_alone: list[list[int]] = [[] for _ in range(players)]
        targets: list[tuple[int, int, float]] = []
        tyros_open = self.phases_left > 1 and any(chips[n] < 0 for n in board.neighbours[TYROS])
        for space in range(board.space_count):
            if cities[space] >= 0:
                continue
            colour = chips[space]
            if not total[space]:
                if colour >= 0:
                    targets.append((space, colour, held[colour]))
                continue
            holder = -1
            for seat in range(players):
                if own[seat][space]:
                    holder = seat if holder == -1 else -2
            alone[space] = holder
            if holder >= 0:
                if colour >= 0:
                    held_alone[holder].append(space)
                    points[holder] += held[colour] if self.phases_left else ship_value[colour]
                elif space == TYROS and tyros_open:
                    points[holder] += TYROS_UNCOLOURED * min(ship_value) * hold
        self.alone = alone
        self.held_alone = held_alone
        """The coloured spaces each seat holds by ships alone (where it may build a city)."""
        self.targets = targets

    def _bonuses(self, points: list[float]) -> None:
        """The expected majority bonuses and the all-four-empires bonus."""
        state = self.state
        players = state.players
        counts = self.city_counts
        # The most cities of each colour, whose seat, and the second most: a seat's best
        # other is the most unless the seat holds it.
        top = [0] * COLOURS
        top_seat = [-1] * COLOURS
        second = [0] * COLOURS
        for seat in range(players):
            row = counts[seat]
            for colour in range(COLOURS):
                n = row[colour]
                if n > top[colour]:
                    second[colour], top[colour], top_seat[colour] = top[colour], n, seat
                elif n > second[colour]:
                    second[colour] = n
        best_other = [
            [second[c] if top_seat[c] == seat else top[c] for c in range(COLOURS)]
            for seat in range(players)
        ]
        self.best_other = best_other
        bonus = state.all_four_bonus
        for seat in range(players):
            for colour in range(COLOURS):
                mine = counts[seat][colour]
                if mine:
                    points[seat] += majority_share(mine, best_other[seat][colour], self.phases_left)
            if bonus == seat:
                points[seat] += BONUS
            elif bonus < 0:
                points[seat] += all_four_share(self.colours_of[seat], self.phases_left)

    def majority(self, seat: int, colour: int, extra: int = 0) -> float:
        return majority_share(
            self.city_counts[seat][colour] + extra, self.best_other[seat][colour], self.phases_left
        )

    def board_points(self, seat: int) -> float:
        """Expected points from the seat's cities, ship-held spaces and bonuses."""
        return self.points[seat]

    def plan(self, seat: int) -> Plan:
        return Plan(self, seat)

    def value(self, seat: int) -> float:
        return self.points[seat] + self.plan(seat).hand_value(self.state.hands[seat])

    def values(self) -> list[float]:
        return [self.value(seat) for seat in range(self.state.players)]

    def parts(self, seat: int) -> tuple[float, float, float, float]:
        """The seat's value in its parts (they add up to :meth:`value`): its cities, the
        spaces its ships hold, the bonuses (majorities, all four empires), its hand. The
        stages are added up again here (a review asks; the bots' search never does)."""
        cities, board = self.board_stages()
        hand = self.plan(seat).hand_value(self.state.hands[seat])
        return cities[seat], board[seat] - cities[seat], self.points[seat] - board[seat], hand

    def board_stages(self) -> tuple[list[float], list[float]]:
        """Every seat's points from its cities, and from its cities and the spaces its ships
        hold: :attr:`points`' first stages, added up again."""
        cities = [0.0] * self.state.players
        self._cities(cities)
        board = list(cities)
        self._holdings(board)
        return cities, board


Purchase = tuple[float, float, int, int, int, int, int]
"""(efficiency, gain, colour, colour cards, any cards, spare port or -1, target space or -1)."""

_DISTANCES: dict[int, tuple[Board, tuple[tuple[int, ...], ...]]] = {}


def target_distances(board: Board) -> tuple[tuple[int, ...], ...]:
    """Fewest steps from each port to each space (the nearer of its ports), -1 if unreachable."""
    found = _DISTANCES.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    out = []
    for port in range(board.port_count):
        row = []
        for ports in board.space_ports:
            steps = [board.distance[port][p] for p in ports if board.distance[port][p] >= 0]
            row.append(min(steps) if steps else -1)
        out.append(tuple(row))
    table = tuple(out)
    _DISTANCES[id(board)] = (board, table)
    return table


class Plan:
    """What one seat's cards can buy in one position: a list of purchases, best first."""

    __slots__ = (
        "alpha",
        "analysis",
        "baseline",
        "beta",
        "power",
        "purchases",
        "seat",
        "spare_count",
    )

    def __init__(self, analysis: Analysis, seat: int) -> None:
        self.analysis = analysis
        self.seat = seat
        phases = analysis.phases_left
        keeping = analysis.state.phase == Phase.KEEP
        self.power = 1.0 if keeping else 2.0
        if phases <= 0:
            self.alpha = self.beta = 0.0
            self.baseline = (0.0, 0.0)
        elif keeping:
            self.alpha, self.beta = AFFORDABLE_NEXT, PARTIAL_NEXT
            self.baseline = (KEPT_CARD, SPARE_CARD)
        elif phases >= 2:
            self.alpha, self.beta = AFFORDABLE_NOW, PARTIAL_MORE_ROUNDS
            self.baseline = (KEPT_CARD, SPARE_CARD)
        else:
            self.alpha, self.beta = AFFORDABLE_NOW, PARTIAL_LAST_ROUND
            self.baseline = (LAST_ROUND_CARD, LAST_ROUND_CARD)
        self.spare_count: dict[int, int] = {}
        self.purchases = self._purchases() if phases > 0 else []

    def _purchases(self) -> list[Purchase]:
        analysis = self.analysis
        state = analysis.state
        seat = self.seat
        board = state.board
        chips, cities, ships = state.chips, state.cities, state.ships
        alone = analysis.alone
        city_value = analysis.city_value
        held = analysis.held_value
        own = analysis.own[seat]
        total = analysis.total_ships
        out: list[Purchase] = []
        # Cities where the seat's ships stand alone.
        if state.city_supply[seat]:
            four = state.all_four_bonus < 0
            have = analysis.colours_of[seat]
            phases = analysis.phases_left
            counts = analysis.city_counts[seat]
            best_other = analysis.best_other[seat]
            for space in analysis.held_alone[seat]:
                colour = chips[space]
                cost = 4 if own[space] >= 2 else 5
                gain = (
                    city_value[colour]
                    - held[colour]
                    + majority_share(counts[colour] + 1, best_other[colour], phases)
                    - majority_share(counts[colour], best_other[colour], phases)
                )
                if four and not counts[colour]:
                    gain += all_four_share(have + 1, phases) - all_four_share(have, phases)
                    if have == 3:
                        gain += BONUS * 0.5
                out.append((gain / cost, gain, colour, cost, 0, -1, space))
        # Ships that can be moved (or built and moved) to free spaces.
        sources: list[tuple[int, int, int, int]] = []  # (port, colour, colour cards, any cards)
        spare_count = self.spare_count
        space_ports = board.space_ports
        for space in analysis.ship_spaces[seat]:
            mine = own[space]
            spare = mine - 1 if alone[space] == seat and chips[space] >= 0 else mine
            if not spare:
                continue
            for port in space_ports[space]:
                n = min(spare, ships[port * MAX_SEATS + seat])
                spare -= n
                if n:
                    spare_count[port] = n
                    sources.append((port, -1, 0, 0))
        if state.ship_supply[seat]:
            if cities[TYROS] < 0 and own[TYROS] < 2:
                sources.append((board.build_port(TYROS), -1, 0, total[TYROS] + 1))
            for space in analysis.city_spaces[seat]:
                present = total[space]
                if present < 2:
                    sources.append((board.build_port(space), chips[space], 1, present))
        if sources:
            distances = target_distances(board)
            # Each source is its own key (a port's spare ships, or a build at a port), so
            # the nearest two per target are the two cheapest, the first listed on a tie.
            rows = [
                (
                    distances[port],
                    build_colour,
                    build_cards,
                    any_cards,
                    port if build_colour < 0 and any_cards == 0 else -1 - port,
                )
                for port, build_colour, build_cards, any_cards in sources
            ]
            for space, colour, gain in analysis.targets:
                first: tuple[int, int, int, int] | None = None  # (cards in all, cards, any, key)
                second: tuple[int, int, int, int] | None = None
                for row, build_colour, build_cards, any_cards, key in rows:
                    steps = row[space]
                    if steps <= 0:
                        continue
                    if build_colour == colour:
                        cards, extra_any = steps + build_cards, any_cards
                    else:
                        cards, extra_any = steps, any_cards + build_cards
                    cost = cards + extra_any
                    if first is None or cost < first[0]:
                        second = first  # (two statements: mypyc compiles the swap
                        first = (cost, cards, extra_any, key)  # of optionals wrongly)
                    elif second is None or cost < second[0]:
                        second = (cost, cards, extra_any, key)
                if first is not None:
                    cost, cards, extra_any, key = first
                    out.append((gain / cost, gain, colour, cards, extra_any, key, space))
                    if second is not None:
                        cost, cards, extra_any, key = second
                        out.append((gain / cost, gain, colour, cards, extra_any, key, space))
        out.sort(reverse=True)
        return out[:MAX_PURCHASES]

    def hand_value(self, hand: CardCounts | Sequence[int]) -> float:
        """The value of ``hand`` in this position: purchases in full or in part, then leftovers."""
        if self.alpha == 0.0:
            return 0.0
        left = list(hand)
        value = 0.0
        used_ports: dict[int, int] = {}
        used_targets: set[int] = set()
        alpha = self.alpha
        spare_count = self.spare_count
        cards_left = sum(left)
        for _eff, gain, colour, cards, any_cards, key, target in self.purchases:
            if cards + any_cards > cards_left or target in used_targets:
                continue
            if key >= 0:
                if used_ports.get(key, 0) >= spare_count.get(key, 0):
                    continue
            elif key in used_ports:
                continue
            short = cards - left[colour]
            if short < 0:
                short = 0
            if short > left[WILD]:
                continue
            left[colour] -= cards - short
            left[WILD] -= short
            if any_cards:
                _spend_any(left, any_cards)
            cards_left -= cards + any_cards
            value += gain * alpha
            if not cards_left:  # nothing more can be bought, nor held toward
                break
            used_targets.add(target)
            used_ports[key] = used_ports.get(key, 0) + 1
        partial = left[:WILD]  # the colours
        wilds = left[WILD]  # a wild helps whichever purchase comes first
        # Unfinished purchases: a bonus for the cards already held toward them.
        beta = self.beta
        if beta > 0 and cards_left:
            power = self.power
            for _eff, gain, colour, cards, any_cards, key, target in self.purchases:
                if target in used_targets:  # (a purchase made is one of them)
                    continue
                if key >= 0 and used_ports.get(key, 0) >= spare_count.get(key, 0):
                    continue
                own = min(cards, partial[colour])
                extra = min(cards - own, wilds)
                held = own + extra
                if held <= 0:
                    continue
                partial[colour] -= own
                wilds -= extra
                value += gain * beta * (held / (cards + any_cards)) ** power
                used_targets.add(target)
        kept, spare = self.baseline
        if cards_left <= 3:
            return (value + cards_left * kept) * self.analysis.hand_weight
        return (value + 3 * kept + (cards_left - 3) * spare) * self.analysis.hand_weight

    def card_values(self, hand: CardCounts | Sequence[int]) -> list[float]:
        """The value each kind of card adds to ``hand`` (what losing one of them costs)."""
        whole = self.hand_value(hand)
        out = []
        for kind in range(5):
            if hand[kind]:
                fewer = list(hand)
                fewer[kind] -= 1
                out.append(whole - self.hand_value(fewer))
            else:
                more = list(hand)
                more[kind] += 1
                out.append(self.hand_value(more) - whole)
        return out


def _spend_any(left: list[int], count: int) -> None:
    """Take ``count`` cards of any kinds, the most plentiful colours first, wilds last."""
    for _ in range(count):
        best = max(range(COLOURS), key=lambda k: left[k])
        if left[best] > 0:
            left[best] -= 1
        else:
            left[WILD] -= 1


def evaluate(state: GameState) -> list[float]:
    """Each seat's expected final points (at the end of the game: the score sheet's totals)."""
    return Analysis(state).values()


def rewards(values: Sequence[float], temperature: float, share: float = 0.0) -> list[float]:
    """Per-seat rewards in [0, 1] from values (never negative).

    A logistic of the seat's lead over the best other seat (``temperature``
    points of lead give about 0.73), blended with weight ``share`` with the
    seat's value as a share of the best value (so that a seat far behind still
    prefers more points to fewer).

    >>> [round(r, 3) for r in rewards([50.0, 40.0, 30.0], 10.0)]
    [0.731, 0.269, 0.119]
    >>> [round(r, 3) for r in rewards([50.0, 40.0, 30.0], 10.0, share=0.5)]
    [0.866, 0.534, 0.36]
    """
    out = []
    top = max(values)
    for seat, mine in enumerate(values):
        best = max(v for other, v in enumerate(values) if other != seat)
        x = (mine - best) / temperature
        lead = 1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0
        if share:
            lead = (1 - share) * lead + share * (mine / top if top > 0 else 0.0)
        out.append(lead)
    return out


__all__ = ["Analysis", "Plan", "evaluate", "rewards"]
