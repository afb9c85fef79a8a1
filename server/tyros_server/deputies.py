"""Decisions the server makes for a seat: a bot for an absent owner, for a slow one, or
for a seat the server's own bot holds; and advice, the same bot's choice shown as a hint.

The session asks (a :class:`Decision`: the seat's view, its legal actions and the offers it
made this round as it saw them, nothing else);
the shell runs :meth:`Decision.run` off the event loop, in a worker thread, and hands the
choice back to :meth:`Session.decided <tyros_server.session.Session.decided>`, which
applies it like a player's action: checked against the game as it is then, committed
before anyone hears of it. So no bot, however slow, holds up the other tables.

:class:`Deputies` keeps the books: at most one decision in flight per seat, and a pace
per table, so that a table of absent players plays at a person's speed, not in a burst.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from tyros_rules import (
    PROPOSE_GET,
    PROPOSE_GIVE,
    PROPOSE_TO,
    Action,
    GameState,
    Kind,
    event_view,
    parse_action,
)

from .worker import Lane

log = logging.getLogger("tyros.deputies")

TakeoverPolicy = Callable[[str, int, dict[str, Any], list[Action]], Action]
"""(table, seat, view, legal) -> action: plays a seat from that seat's view only. It may
also have ``forget(table)``, called (on the same worker) once a table needs it no more,
and ``meet(table, seat, people, offers)``, called before each decision with the seats people
hold and the offers the seat made this round (a bot keeps table manners towards them)."""

DecidedBy = Literal["takeover", "clock", "seat"]
"""Who decides: a bot for an absent owner, the server when the seat's time ran out, or the
server's own bot that holds the seat for good (``seat``: it plays for itself, trades too)."""
PACED: tuple[DecidedBy, ...] = ("takeover", "seat")
"""The decisions made at a table's pace, one at a time."""


class SeatPlayer(Protocol):
    """What plays an absent seat: it sees that seat's view and legal actions, nothing else
    (a :class:`tyros_client.bots.Bot` is one)."""

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


PlayerFactory = Callable[[int, random.Random], SeatPlayer]
"""(seat, rng) -> the player of that seat (a bot class is one)."""


class RandomPlayer:
    """The built-in takeover strategy: uniform among the legal actions."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return self.rng.choice(legal)


class SeatBots:
    """A takeover policy that plays each seat with one player of its own (bots remember
    what they saw), made the first time the seat needs one, dropped with its table."""

    def __init__(self, factory: PlayerFactory) -> None:
        self.factory = factory
        self.players: dict[tuple[str, int], SeatPlayer] = {}

    def __call__(self, table: str, seat: int, view: dict[str, Any], legal: list[Action]) -> Action:
        return self._player(table, seat).choose(view, legal)

    def meet(self, table: str, seat: int, people: frozenset[int], offers: Offers | None) -> None:
        """Tell the seat's player who the people at the table are, and the offers the seat
        made this round (a bot's ``manners``)."""
        manners = getattr(self._player(table, seat), "manners", None)
        if manners is not None:
            manners.people = people - {seat}
            if offers is not None:  # (not told: the bot goes by its own memory)
                made, round_ = offers
                terms = [(a[PROPOSE_TO], a[PROPOSE_GIVE], a[PROPOSE_GET]) for a in made]
                manners.recall(terms, round_=round_)

    def _player(self, table: str, seat: int) -> SeatPlayer:
        player = self.players.get((table, seat))
        if player is None:
            player = self.players[(table, seat)] = self.factory(seat, random.Random())
        return player

    def forget(self, table: str) -> None:
        for key in [key for key in self.players if key[0] == table]:
            del self.players[key]


class LevelPolicies:
    """The policies of the server's own bots, one for each level (a strategy's name), each
    made the first time a table of that level needs it: a level nobody plays costs nothing."""

    def __init__(self, make: Callable[[str], TakeoverPolicy]) -> None:
        self.make = make
        self.made: dict[str, TakeoverPolicy] = {}

    def of(self, level: str) -> TakeoverPolicy:
        policy = self.made.get(level)
        if policy is None:
            policy = self.made[level] = self.make(level)
        return policy


def negotiates(action: Action) -> bool:
    """Whether ``action`` would trade the seat's cards on its own initiative: an offer, a
    counter-offer, or accepting another's offer. A deputy never does (it decides for a
    person, who did not choose to give their cards away).

    >>> negotiates((Kind.ANSWER, 1)), negotiates((Kind.ANSWER, 0)), negotiates((Kind.PASS,))
    (True, False, False)
    """
    return action[0] in (Kind.PROPOSE, Kind.COUNTER) or action == (Kind.ANSWER, 1)


Offers = tuple[tuple[Action, ...], int]
"""The offers a seat made in the round, and the round's number (see :func:`offers_made`)."""


def offers_made(state: GameState, seat: int) -> Offers:
    """The offers ``seat`` made since the round began, from the game's record as the seat
    saw it (whoever chose them: its person, or a bot for it), and the round."""
    made: list[Action] = []
    for event in reversed(state.log or []):
        if event["type"] == "round_start":
            break
        if event["type"] != "action" or event["seat"] != seat:
            continue  # (on the loop at every decision: only the seat's own actions are viewed)
        seen = event_view(event, seat)
        if seen is not None and seen["action"]["kind"] == "propose":
            made.append(parse_action(seen["action"], state.board))
    return tuple(reversed(made)), state.round


def meet(
    policy: TakeoverPolicy,
    table: str,
    seat: int,
    people: frozenset[int],
    offers: Offers | None,
) -> None:
    """Tell ``policy`` (if it wants to know) who the people at ``table`` are, and what the
    seat offered this round."""
    tell = getattr(policy, "meet", None)
    if tell is not None:
        tell(table, seat, people, offers)


@dataclass(eq=False, slots=True)
class Decision:
    """One decision to make for ``seat`` of ``table``, as the game stood at ``version``."""

    table: str
    seat: int
    version: int
    by: DecidedBy
    view: dict[str, Any]
    """The seat's own view: with ``offers``, all the policy may know."""
    legal: list[Action]
    """What the seat may do, less negotiation (see :func:`negotiates`) unless the server's
    own bot holds the seat (``by`` is ``seat``); the first is the cautious choice (pass, or
    decline)."""
    policy: TakeoverPolicy
    people: frozenset[int] = frozenset()
    """The seats people hold at the table (see :func:`meet`)."""
    offers: Offers | None = None
    """What the seat offered this round (see :func:`offers_made`; None: not told)."""
    level: str | None = None
    """The level of the server's own bot deciding (``by`` is ``seat``), whose policy is
    ``policy``; None: the takeover policy decides (a decision process puts the policy
    of the same name in its place)."""

    @property
    def lane(self) -> Lane:
        """A person's seat (taken over, or out of time) goes before the server's bots."""
        return Lane.HOUSE if self.by == "seat" else Lane.PEOPLE

    def run(self) -> Action | None:
        """The policy's choice, or None if it failed (the session then takes the first
        legal action: a bot's bug must not stop the table). Runs in a worker thread: it
        touches nothing but its own view and list."""
        try:
            meet(self.policy, self.table, self.seat, self.people, self.offers)
            return self.policy(self.table, self.seat, self.view, self.legal)
        except Exception:
            log.exception("the takeover policy failed at table %s", self.table)
            return None


@dataclass(eq=False, slots=True)
class Farewell:
    """Tell the policy that ``table`` needs its players no more (run on the same worker as
    the decisions, after any still queued for that table)."""

    table: str
    policy: TakeoverPolicy
    levels: tuple[TakeoverPolicy, ...] = ()
    """The policies of the server's own bots at each level made so far: they forget too."""
    lane = Lane.HOUSE  # (after the table's last decisions, whichever lane they took)

    def run(self) -> None:
        for policy in (self.policy, *self.levels):
            forget = getattr(policy, "forget", None)
            if forget is not None:
                forget(self.table)


@dataclass(eq=False, slots=True)
class Advice:
    """What the takeover bot would do in ``seat``'s place at ``version``, asked by the seat's
    own connection ``conn`` (message ``re``) as a hint: from the seat's view, never played."""

    conn: int
    re: int | None
    table: str
    seat: int
    version: int
    view: dict[str, Any]
    legal: list[Action]
    policy: TakeoverPolicy
    people: frozenset[int] = frozenset()
    offers: Offers | None = None
    lane = Lane.PEOPLE  # (a person waits for it)

    def run(self) -> Action | None:
        """The policy's choice (None if it failed: no advice is better than a crash)."""
        try:
            meet(self.policy, self.table, self.seat, self.people, self.offers)
            return self.policy(self.table, self.seat, self.view, self.legal)
        except Exception:
            log.exception("the takeover policy failed to advise at table %s", self.table)
            return None


Job = Decision | Farewell | Advice

MAX_ADVICE = 4
"""Advice under way at once, server-wide..."""
ADVICE_PER_ADDRESS = 1
"""...and for one address (so that one machine's seats cannot take every place)."""
"""Work for the shell's worker, in the order the session asked for it."""


@dataclass(slots=True)
class Deputies:
    """The server's decisions under way, and the pace of each table's takeover bot."""

    policy: TakeoverPolicy | None
    pace: float
    """Seconds between two takeover decisions at one table."""
    levels: LevelPolicies | None = None
    """The policies of the server's own bots by their table's level (None: the takeover
    policy plays them too)."""
    in_flight: dict[tuple[str, int], Decision] = field(default_factory=dict)
    ready_at: dict[str, float] = field(default_factory=dict)
    """When each table may have its next takeover decision."""
    jobs: list[Job] = field(default_factory=list)
    """Asked for and not yet taken by the shell (:meth:`drain`)."""
    advising: dict[int, str] = field(default_factory=dict)
    """Connections with advice under way, and their addresses (one at a time each,
    :data:`ADVICE_PER_ADDRESS` per address, and at most :data:`MAX_ADVICE` in all: the
    worker plays absent seats too, who must not wait)."""

    def busy(self, table: str, seat: int) -> bool:
        return (table, seat) in self.in_flight

    def table_busy(self, table: str, by: tuple[DecidedBy, ...]) -> bool:
        return any(d.table == table and d.by in by for d in self.in_flight.values())

    def ask(
        self,
        table: str,
        seat: int,
        version: int,
        by: DecidedBy,
        seen: dict[str, Any],
        legal: list[Action],
        people: frozenset[int] = frozenset(),
        level: str | None = None,
        offers: Offers | None = None,
    ) -> None:
        """Ask for a decision for ``seat``: the server's own bot's (``by`` is ``seat``) at
        its table's ``level``, else the takeover policy's."""
        assert self.policy is not None and not self.busy(table, seat)
        policy, level = self._policy(level if by == "seat" else None)
        decision = Decision(table, seat, version, by, seen, legal, policy, people, offers, level)
        self.in_flight[(table, seat)] = decision
        self.jobs.append(decision)

    def _policy(self, level: str | None) -> tuple[TakeoverPolicy, str | None]:
        """The policy of ``level`` and the level it is (the takeover policy, None, when no
        level is asked for, the levels are not played, or this one cannot be made)."""
        assert self.policy is not None
        if level is None or self.levels is None:
            return self.policy, None
        try:
            return self.levels.of(level), level
        except Exception:  # (a broken install: the table still plays, as the takeover)
            log.exception("the server's bots of level %s cannot be made", level)
            return self.policy, None

    def advise(self, advice: Advice, address: str = "") -> bool:
        """Ask for ``advice`` for a connection from ``address``; False if it has one under
        way already, or its address, or too many are."""
        if self.policy is None or advice.conn in self.advising:
            return False
        if len(self.advising) >= MAX_ADVICE:
            return False
        if sum(1 for a in self.advising.values() if a == address) >= ADVICE_PER_ADDRESS:
            return False
        self.advising[advice.conn] = address
        self.jobs.append(advice)
        return True

    def advised(self, advice: Advice) -> None:
        self.advising.pop(advice.conn, None)

    def answered(self, decision: Decision) -> bool:
        """Take ``decision`` off the books; False if it was not on them (an old one)."""
        key = (decision.table, decision.seat)
        if self.in_flight.get(key) is not decision:
            return False
        del self.in_flight[key]
        return True

    def played(self, table: str, now: float) -> None:
        """A takeover decision was applied at ``table``: the next one waits its pace."""
        self.ready_at[table] = now + self.pace

    def forget(self, table: str) -> None:
        """``table`` is over or gone: its pace, and the policy's players for it."""
        self.ready_at.pop(table, None)
        if self.policy is not None:
            made = tuple(self.levels.made.values()) if self.levels is not None else ()
            self.jobs.append(Farewell(table, self.policy, made))

    def drain(self) -> list[Job]:
        jobs, self.jobs = self.jobs, []
        return jobs
