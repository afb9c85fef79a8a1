"""The game state: plain lists and tuples in a ``__slots__`` class, copied cheaply.

The state holds the whole truth, secrets included; nothing outside the engine
reads it directly (see :mod:`.views`).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from tyros_protocol.board import BOARD, Board
from tyros_protocol.cards import CardCounts

from .constants import CITIES_PER_PLAYER, PLAYER_COUNTS, SHIPS_PER_PLAYER
from .constants import MAX_SEATS as MAX_SEATS  # re-exported: the bot client imports it from here

NOT_ASKED = -2
PENDING = -1
DECLINED = 0
ACCEPTED = 1
COUNTERED = 2
"""An asked seat answered with other terms (``GameState.counters``)."""


class Phase(IntEnum):
    EXPAND = 0
    """The current seat plays a tile (or, if it cannot, puts one under the pile)."""
    ACTIONS = 1
    """The current seat takes a card action or passes."""
    TRADE = 2
    """A trade proposal waits for answers and for the proposer to complete or withdraw."""
    GIVE_CARD = 3
    """The current seat, having moved into another player's city, gives that player a card."""
    KEEP = 4
    """End of round: every seat holding more than 3 cards chooses which 3 to keep."""
    OVER = 5


# An enum member's attribute lookup (``Phase.TRADE``) costs about 0.1 µs in Python 3.11,
# as much as the rest of a hot check: the engine's hot paths compare with these.
P_EXPAND, P_ACTIONS, P_TRADE, P_GIVE_CARD, P_KEEP, P_OVER = tuple(Phase)


@dataclass(frozen=True, slots=True)
class Options:
    """What a table chooses before the game. ``seed`` drives every chance outcome."""

    players: int = 4
    setup: str = "first"
    seed: int = 0
    starting_seat: int | None = None

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNTS:
            raise ValueError("Tyros is played by 3 or 4 players")
        if self.setup not in ("first", "variable"):
            raise ValueError("setup must be 'first' or 'variable'")
        if self.starting_seat is not None and not 0 <= self.starting_seat < self.players:
            raise ValueError("starting_seat must be a seat number")

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "setup": self.setup,
            "seed": self.seed,
            "starting_seat": self.starting_seat,
        }


FIELDS = (
    "all_four_bonus",
    "answers",
    "board",
    "card_memo",
    "chances",
    "chips",
    "cities",
    "city_supply",
    "counters",
    "current",
    "discard",
    "draw_pile",
    "expand_queue",
    "fleets",
    "hands",
    "keep_pending",
    "log",
    "options",
    "owed_to",
    "passes",
    "phase",
    "players",
    "removed_tiles",
    "revealed",
    "round",
    "score",
    "script",
    "seed",
    "ship_supply",
    "ships",
    "space_ships",
    "starting_seat",
    "tile_pile",
    "tiles",
    "trade",
    "trade_tried",
    "version",
)
"""Every attribute of a :class:`GameState`: its slots, which :meth:`~GameState.revert_to`
copies (compiled, the class has no ``__slots__`` to read)."""


class GameState:
    """Everything about one game. Mutated only by :func:`tyros_rules.push`."""

    __slots__ = FIELDS

    board: Board
    options: Options
    players: int
    seed: int
    """Drives every chance outcome: the n-th one uses ``chance_rng`` seeded by (seed, n)."""
    chances: int
    """Chance outcomes drawn so far."""
    script: list[list[int]] | None
    """Recorded shuffle results to use instead of the RNG (replaying a record)."""
    log: list[dict[str, Any]] | None
    """Every event, chance outcomes included; None in copies made for search. Events may be
    shared with other logs (see :func:`.actions.action_event`): never mutate one."""
    version: int
    """Number of actions applied so far."""
    phase: Phase
    round: int
    starting_seat: int
    current: int
    expand_queue: list[int]
    """Seats still to take an expansion turn this round, after ``current``."""
    passes: int
    """Consecutive passes in the card-action phase."""
    trade_tried: bool
    """The current seat's proposal failed this turn: no second one."""
    trade: tuple[int, ...] | None
    """Pending proposal: (proposer, asked_mask, *give, *get), read with the ``TRADE_*``
    constants of :mod:`.actions` (see :func:`.actions.pending_trade`)."""
    answers: list[int]
    counters: tuple[tuple[int, ...] | None, ...]
    """Each seat's counter-offer to the pending proposal: (*give, *get) from the proposer's
    side, like the proposal's terms; None where it made none."""
    owed_to: int
    keep_pending: list[bool]
    hands: list[CardCounts]
    tiles: list[tuple[int, ...]]
    """Map tiles in each hand, sorted."""
    revealed: list[tuple[int, ...]]
    """Tiles in each hand that everyone has seen (revealed when unable to expand)."""
    tile_pile: list[int]
    """Top of the pile is the end of the list."""
    removed_tiles: list[int]
    """Tiles out of the game: the four start spaces and every tile played."""
    draw_pile: list[int]
    """Commerce cards by kind; the top is the end of the list."""
    discard: CardCounts
    chips: list[int]
    """Empire colour of each space, -1 for none."""
    cities: list[int]
    """Seat owning the city in each space, -1 for none."""
    ships: list[int]
    """Ships per port and seat: ``ships[port * MAX_SEATS + seat]``."""
    space_ships: list[int]
    """Ships per space, every seat's together: kept in step with ``ships`` by
    :meth:`add_ships` (move enumeration asks it for every destination)."""
    fleets: list[tuple[int, ...]]
    """The ports where each seat has ships, in order: kept in step with ``ships`` by
    :meth:`add_ships` (every card-action enumeration starts from it)."""
    ship_supply: list[int]
    city_supply: list[int]
    all_four_bonus: int
    """The seat that first had cities in all four empires, or -1."""
    score: dict[str, Any] | None
    card_memo: tuple[int, CardCounts, tuple[Any, ...]] | None
    """(seat, its hand, its card actions but proposals) as last enumerated, while only a
    proposal and its answers have followed: a withdrawn proposal leaves the seat the same
    actions (see :func:`.legal.card_actions`). Not rules-relevant: no fingerprint holds it,
    copies start without it, and every other action clears it (:func:`.rules.push_unchecked`).
    """

    def copy(self, *, keep_log: bool = False, seed: int | None = None) -> GameState:
        """A copy that shares nothing mutable with this state.

        Search copies drop the log (``keep_log=False``); give them their own ``seed``
        to make their future chance outcomes independent of this game's.
        """
        new = GameState.__new__(GameState)
        new.board = self.board
        new.options = self.options
        new.players = self.players
        if seed is None:
            new.seed, new.chances = self.seed, self.chances
        else:
            new.seed, new.chances = seed, 0
        new.script = None if self.script is None else [list(s) for s in self.script]
        new.log = list(self.log) if keep_log and self.log is not None else None
        new.version = self.version
        new.phase = self.phase
        new.round = self.round
        new.starting_seat = self.starting_seat
        new.current = self.current
        new.expand_queue = self.expand_queue[:]
        new.passes = self.passes
        new.trade_tried = self.trade_tried
        new.trade = self.trade
        new.answers = self.answers[:]
        new.counters = self.counters
        new.owed_to = self.owed_to
        new.keep_pending = self.keep_pending[:]
        new.hands = self.hands[:]
        new.tiles = self.tiles[:]
        new.revealed = self.revealed[:]
        new.tile_pile = self.tile_pile[:]
        new.removed_tiles = self.removed_tiles[:]
        new.draw_pile = self.draw_pile[:]
        new.discard = self.discard
        new.chips = self.chips[:]
        new.cities = self.cities[:]
        new.ships = self.ships[:]
        new.space_ships = self.space_ships[:]
        new.fleets = self.fleets[:]
        new.ship_supply = self.ship_supply[:]
        new.city_supply = self.city_supply[:]
        new.all_four_bonus = self.all_four_bonus
        new.score = self.score
        new.card_memo = None  # a copy's hands may be changed (determinized) by search
        return new

    def fingerprint(self) -> tuple[Any, ...]:
        """Every rules-relevant field, for comparing two states (RNG, seed and log excluded)."""
        return (
            self.players,
            self.options.setup,
            self.version,
            self.phase,
            self.round,
            self.starting_seat,
            self.current,
            tuple(self.expand_queue),
            self.passes,
            self.trade_tried,
            self.trade,
            tuple(self.answers),
            self.owed_to,
            tuple(self.keep_pending),
            tuple(self.hands),
            tuple(self.tiles),
            tuple(self.revealed),
            tuple(self.tile_pile),
            tuple(self.removed_tiles),
            tuple(self.draw_pile),
            self.discard,
            tuple(self.chips),
            tuple(self.cities),
            tuple(self.ships),
            tuple(self.ship_supply),
            tuple(self.city_supply),
            self.all_four_bonus,
            # Only when there are any: the digests of games stored before counter-offers
            # existed stay what they were.
            *((self.counters,) if any(self.counters) else ()),
        )

    def digest(self) -> str:
        """A stable digest of every rules-relevant field and of how far chance has gone:
        two engines that agree on a game agree on this after every action, so a stored
        game can prove that it replays as it was played.

        >>> from tyros_rules import new_game
        >>> new_game(Options(players=3, seed=1)).digest() == new_game(Options(3, seed=1)).digest()
        True
        """
        text = json.dumps([self.fingerprint(), self.chances], separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def revert_to(self, snapshot: GameState) -> None:
        """Become ``snapshot`` (a :meth:`copy` with its log) again, in place: an action the
        store refused is undone, and whoever holds this state sees the undo."""
        for name in FIELDS:
            setattr(self, name, getattr(snapshot, name))

    # Small queries used everywhere -------------------------------------------------

    def ships_of(self, port: int, seat: int) -> int:
        return self.ships[port * MAX_SEATS + seat]

    def ships_in_space(self, space: int, seat: int) -> int:
        ports = self.board.space_ports[space]
        if len(ports) == 1:  # a space's only port has the space's id
            return self.ships[space * MAX_SEATS + seat]
        return sum(self.ships[port * MAX_SEATS + seat] for port in ports)

    def total_ships_in_space(self, space: int) -> int:
        return self.space_ships[space]

    def add_ships(self, port: int, seat: int, count: int) -> None:
        """Put ``count`` ships of ``seat`` on ``port`` (take them away if negative): the one
        way to change ``ships``, which keeps ``space_ships`` and ``fleets`` in step."""
        index = port * MAX_SEATS + seat
        before = self.ships[index]
        after = self.ships[index] = before + count
        self.space_ships[self.board.port_space[port]] += count
        if (before == 0) != (after == 0):  # the seat arrives at or leaves the port
            fleet = self.fleets[seat]
            self.fleets[seat] = (
                tuple(sorted((*fleet, port))) if after else tuple(p for p in fleet if p != port)
            )

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    def chance_rng(self) -> random.Random:
        """A generator for the next chance outcome, seeded by (seed, how many came before).

        Copying a state copies two ints, not a generator's state.
        """
        self.chances += 1
        return random.Random(self.seed * 1_000_003 + self.chances)


def blank_state(options: Options, board: Board = BOARD) -> GameState:
    """A state with empty board and piles, before setup (used by setup and by tests)."""
    state = GameState.__new__(GameState)
    n = options.players
    state.board = board
    state.options = options
    state.players = n
    state.seed = options.seed
    state.chances = 0
    state.script = None
    state.log = []
    state.version = 0
    state.phase = Phase.EXPAND
    state.round = 0
    state.starting_seat = 0
    state.current = 0
    state.expand_queue = []
    state.passes = 0
    state.trade_tried = False
    state.card_memo = None
    state.trade = None
    state.answers = [NOT_ASKED] * n
    state.counters = (None,) * n
    state.owed_to = -1
    state.keep_pending = [False] * n
    state.hands = [(0, 0, 0, 0, 0)] * n
    state.tiles = [()] * n
    state.revealed = [()] * n
    state.tile_pile = []
    state.removed_tiles = []
    state.draw_pile = []
    state.discard = (0, 0, 0, 0, 0)
    state.chips = [-1] * board.space_count
    state.cities = [-1] * board.space_count
    state.ships = [0] * (board.port_count * MAX_SEATS)
    state.space_ships = [0] * board.space_count
    state.fleets = [()] * n
    state.ship_supply = [SHIPS_PER_PLAYER] * n
    state.city_supply = [CITIES_PER_PLAYER] * n
    state.all_four_bonus = -1
    state.score = None
    return state
