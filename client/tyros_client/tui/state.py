"""What the client knows: a plain object the network task updates and the screen reads.

:meth:`ClientState.apply` folds in one notice of the client session (which classified the
server's message, and passes each event and line of talk on once): where we sit, who
sits at the table, the last view and prompt, the log of events, the last refusal. There
are no rules here: the view and the prompt are kept as the server sent them. The screen
reads the protocol's models (the table, the prompt, the clocks, the view as :attr:`game`,
its score sheet, the events and the legal actions); the words, the commands and the hints
read the view, its events and the legal actions in the frame's form (:attr:`view`,
:attr:`events`, :attr:`legal`).

>>> from tyros_client.session import ClientSession, Join
>>> session = ClientSession(Join("friday", "Ann"))
>>> session.connection_made()
>>> state = ClientState("ws://localhost:8765", "friday", "Ann")
>>> for frame in ('{"type": "welcome", "re": 1, "protocol": 1, "table": "friday", "seat": 0, '
...               '"name": "Ann", "token": "secret"}',
...               '{"type": "error", "re": 2, "code": "not_your_turn", "message": "wait"}'):
...     for notice in session.receive(frame):
...         state.apply(notice)
>>> state.seat, state.error.text
(0, 'it is not your turn')
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from tyros_protocol.actions import (
    Action,
    AnswerAction,
    CompleteAction,
    CounterAction,
    ProposeAction,
)
from tyros_protocol.catalogue import TRADE_TALK
from tyros_protocol.events import ActionTaken, Event, RoundStart, SeenAction
from tyros_protocol.messages import ChatLine, Error, Prompt, SeatClock, SeatStatus, TableInfo
from tyros_protocol.views import GameView, ScoreSheet

from ..courtesy import Orders
from ..notices import Accepted, Heard, Joined, JoinRefused, Notice, Refused, TableChanged, Updated
from ..scoresheet import point_changes, running_sheet
from ..words import describe_action, describe_event, describe_target, error_words, letter, who

LOG_LIMIT = 2000
AWAY_GRACE = 15.0
"""Seconds a seat may be gone before the log says it is away: a server restart's
reconnections (every client retries at least each 5 s) come back within it, and say
nothing."""


class LineKind(Enum):
    """What a line of the log is (the screen chooses how each kind looks: ``style.py``)."""

    EVENT = "event"
    ROUND = "round"
    """An event that begins a round."""
    MINE = "mine"
    """An action of the player's own seat."""
    POINTS = "points"
    """Points that moved without their seat acting."""
    SUMMARY = "summary"
    """What happened since the player's last turn."""
    INFO = "info"
    ERROR = "error"
    CHAT = "chat"
    """Table talk."""


@dataclass(frozen=True, slots=True)
class LogLine:
    text: str
    kind: LineKind = LineKind.INFO
    event: bool = False
    """A game event (replaced on a resync) rather than a note of the client's."""
    version: int = -1
    """The game version of an event, or the one a line of talk was said at (-1: none)."""


@dataclass(frozen=True, slots=True)
class Note:
    """A message for the player's eyes, stamped so that the newest one wins."""

    text: str
    at: float
    error: bool = True
    connection: bool = False
    """About the connection: stale once the client is connected again."""
    lasting: bool = False
    """Stays on the message line while the game moves on without the player, as an error
    does (what the client did in the player's name, which the next update would hide)."""


class ClientState:
    """Everything the screen shows, as received from the server."""

    def __init__(
        self,
        address: str,
        table: str,
        name: str,
        *,
        spectate: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.address = address
        self.table = table
        self.name = name
        self.spectate = spectate
        self.clock = clock
        self.seat: int | None = None
        self.table_info: TableInfo | None = None
        self.view: dict[str, Any] | None = None
        """The last view in the frame's form (what the words, the commands and the hints
        read); the screen reads :attr:`game`."""
        self.game: GameView | None = None
        """The last view, as the protocol's model."""
        self.sheet: ScoreSheet | None = None
        """The last view's score sheet: the final one, or before the end what each seat
        would score if the game ended now (None: it cannot be told)."""
        self.prompt: Prompt | None = None
        self.orders = Orders()
        """The player's standing orders (auto-pass, declining, confirming), which the
        :class:`~.autopilot.Autopilot` carries out: a turn auto-pass plays gets no catch-up
        summary, since nobody is about to decide (the log told it all)."""
        self._legal: tuple[Prompt | None, list[dict[str, Any]]] = (None, [])
        self.prompt_at = 0.0
        """When the prompt arrived (its ``deadline`` counts from then)."""
        self.version = -1
        self.log: list[LogLine] = []
        self.error: Note | None = None
        self.connection = "connecting"
        self.connected = False
        self.connected_at = 0.0
        """When the connection last came up (older notices about it are stale)."""
        self.fatal: str | None = None
        """Why the client gave up (the screen stays for reading)."""
        self.table_at = 0.0
        """When the table info arrived (its ``takeover_in`` counts from then)."""
        self.clocks: list[SeatClock] | None = None
        """At a table with a clock: each seat's time, as of ``prompt_at``."""
        self.accepted = 0
        """How many of our actions the server accepted (the last at ``accepted_version``)."""
        self.accepted_version = -1
        self.changes = 0
        """Bumped by every message, so that the screen can tell something changed."""
        self._my_turn = False
        self.turns_begun = 0
        """Bumped when this seat's turn begins (the screen then shows the log's newest)."""
        self._acted = False
        """Whether this seat has acted in the game (as far as the log shows)."""
        self._since_mine: list[tuple[int, SeenAction]] = []
        """What the other seats did since this seat's last action."""
        self._for_me: list[SeenAction] = []
        """Actions made in this seat's name since it last acted itself: by the server (its
        clock ran out, or a bot played for it) or by this client (its only possible move)."""
        self._sent_for_me: list[tuple[str, int]] = []
        """The only possible moves this client sent for the seat whose events have not come
        yet: (kind, the version they were sent at)."""
        self.events: list[dict[str, Any]] = []
        """The game's events as this seat was shown them (each once): a hint's memory."""
        self.annotate: Callable[[Event], str] | None = None
        """Words added to an event's log line (a replay's review marks)."""
        self.bot_names: set[str] = set()
        """Names of the seats this program knows are bots (``tyros-play`` starts them)."""
        self._sheet: dict[str, Any] | None = None
        """The running score sheet of the last view (a log line says what moves points)."""
        self._gone: dict[int, float] = {}
        """Seats seen disconnected, and since when (logged once gone for ``AWAY_GRACE``)."""
        self._said_away: set[int] = set()
        """Seats the log said are away (it says so when they are back)."""

    # What the screen asks ----------------------------------------------------------

    @property
    def names(self) -> list[str | None]:
        info = self.table_info
        if self.game is not None:
            players = self.game.players
        else:
            players = 4 if info is None else info.players
        names: list[str | None] = [None] * players
        for status in [] if info is None else info.seats:
            if status.seat < len(names):
                names[status.seat] = status.name
        return names

    def seat_status(self, seat: int) -> SeatStatus:
        for status in [] if self.table_info is None else self.table_info.seats:
            if status.seat == seat:
                return status
        return SeatStatus(seat=seat, name=None, connected=False)

    @property
    def legal(self) -> list[dict[str, Any]]:
        """The prompt's legal actions, in the frame's form (none without a prompt)."""
        prompt, legal = self._legal
        if prompt is not self.prompt:  # (read at every drawing: made once per prompt)
            legal = [] if self.prompt is None else [a.wire() for a in self.prompt.legal]
            self._legal = (self.prompt, legal)
        return list(legal)

    @property
    def legal_actions(self) -> list[Action]:
        """The prompt's legal actions, as the protocol's models (none without a prompt)."""
        return [] if self.prompt is None else list(self.prompt.legal)

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.phase == "over"

    def seconds_left(self) -> float | None:
        """Time left to answer the trade offer asked of us: its answer time, or this seat's
        clock when that runs out first, since then the server answers (None: no offer to
        answer). One deadline, so that the request and the table agree to the second."""
        deadline = None if self.prompt is None else self.prompt.deadline
        if deadline is None:
            return None
        left = max(0.0, deadline - (self.clock() - self.prompt_at))
        clock = self.clock_left(self.seat) if self.seat is not None else None
        return left if clock is None else min(left, clock)

    def note(
        self,
        text: str,
        *,
        error: bool = True,
        connection: bool = False,
        short: str = "",
        lasting: bool = False,
    ) -> None:
        """A message from the client itself (for instance about the connection), logged;
        the message line shows ``short`` instead when given (a long text is read in the
        log, not wrapped over the panels)."""
        self.error = Note(short or text, self.clock(), error, connection, lasting)
        self._log(text, LineKind.ERROR if error else LineKind.INFO)
        self.changes += 1

    def sent_for_you(self, action: dict[str, Any]) -> None:
        """The client sent ``action``, the seat's only possible move, without the player: its
        event goes into the summary at the seat's next turn, as what was done in its name
        (the message line and the log say it at once, but bots' moves soon bury both)."""
        self._sent_for_me.append((str(action.get("kind")), self.version))

    def _sent_by_me(self, taken: ActionTaken) -> bool:
        """Whether ``taken``, an action of this seat, is an only move the client sent."""
        if not self._sent_for_me or taken.version <= self._sent_for_me[0][1]:
            return False  # (nothing sent, or an older action that a resync replays)
        kind, _ = self._sent_for_me.pop(0)
        return taken.action.kind == kind  # (else what was sent never went: the player's own)

    # Messages ------------------------------------------------------------------------

    def apply(self, notice: Notice) -> None:
        """Fold in what the session made of one server message."""
        if isinstance(notice, Joined):
            self._joined(notice)
        elif isinstance(notice, TableChanged):
            self._table(notice.info)
        elif isinstance(notice, Updated):
            self._update(notice)
        elif isinstance(notice, Heard):
            self._chat(notice.line)
        elif isinstance(notice, Refused | JoinRefused):
            self._sent_for_me.clear()  # (an only move refused is not the seat's next action)
            self.refused(notice.error)
        elif isinstance(notice, Accepted):
            self.accepted += 1
            self.accepted_version = notice.accepted.version
        self.absences()
        self.changes += 1

    def refused(self, error: Error) -> None:
        """The server's refusal, in words, on the message line and in the log."""
        words = error_words(error.code.value, error.message)
        self.error = Note(words, self.clock())
        self._log(words if words.startswith("the server") else f"server: {words}", LineKind.ERROR)
        self.changes += 1

    def _joined(self, joined: Joined) -> None:
        self.seat = joined.seat
        self.table = joined.table
        if joined.welcome.name:
            self.name = joined.welcome.name
        seat = joined.seat
        where = f"as player {letter(seat)}" if isinstance(seat, int) else "as a spectator"
        self._log(f"joined table {self.table} {where}", LineKind.INFO)

    def _update(self, notice: Updated) -> None:
        if notice.resync:
            self._since_mine = []
        if notice.restart:  # the log is rebuilt from the replayed events
            self.log = [line for line in self.log if not line.event]
            self.events = []
        self.view = notice.view.wire()
        self.game = notice.view
        self.clocks = notice.clocks
        self.version = notice.version
        self.prompt = notice.prompt
        self.prompt_at = self.clock()
        names = self.names
        viewer = notice.view.viewer
        my_turn_before = self._my_turn
        self._my_turn = _is_turn(notice.view, self.seat, self.prompt)
        self.turns_begun += self._my_turn and not my_turn_before
        for typed in notice.events:
            event = typed.wire()
            self.events.append(event)
            kind = LineKind.ROUND if isinstance(typed, RoundStart) else LineKind.EVENT
            if isinstance(typed, ActionTaken):
                kind = LineKind.MINE if typed.seat == self.seat else kind
                if typed.seat != self.seat:
                    self._since_mine.append((typed.seat, typed.action))
                elif typed.by:  # (what this client sent for the seat will come too late)
                    self._sent_for_me.clear()
                    self._for_me.append(typed.action)
                elif self._sent_by_me(typed):
                    self._for_me.append(typed.action)
                elif typed.action.kind not in _NOT_A_TURN:
                    self._since_mine, self._for_me = [], []
                    self._acted = True
            text = describe_event(event, names, viewer)
            if text is None:
                continue
            if self.annotate is not None:
                text += self.annotate(typed)
            self._log(text, kind, event=True, version=typed.version)
        running = running_sheet(self.view)
        self.sheet = _score_sheet(notice.view, running)
        self._points_moved(notice, names, None if self.over else running)
        if (
            self._my_turn
            and not my_turn_before
            and (self._since_mine or self._for_me)
            and self._acted  # (on a seat's very first turn there is no "last turn")
            and not notice.resync
            and not (self.game is not None and self.game.round == self.orders.pass_round)
        ):
            for line in since_your_turn(self._since_mine, names, self._for_me):
                self._log(line, LineKind.SUMMARY)
            self._since_mine, self._for_me = [], []

    def _points_moved(
        self, notice: Updated, names: list[str | None], after: dict[str, Any] | None
    ) -> None:
        """A log line when the points of seats that did not act move (a majority tied or
        taken, an empire's rank, ship spaces lost): the table's ``pts`` never changes
        without a word. ``after``: the running sheet now (None once the game is over)."""
        before = self._sheet
        self._sheet = after
        if before is None or after is None or notice.resync or notice.restart:
            return
        actors = {event.seat for event in notice.events if isinstance(event, ActionTaken)}
        try:
            said = point_changes(before, after, actors, names)
        except (KeyError, TypeError, IndexError, ValueError):
            return  # (a sheet of another shape: nothing to say rather than a wrong line)
        if said is not None:
            self._log(said, LineKind.POINTS, event=True, version=self.version)

    def _table(self, info: TableInfo) -> None:
        """Who sits where; a seat that leaves, comes back or is played by a bot is logged
        (once the game is on: before, seats only fill)."""
        had = self.table_info
        before = {} if had is None else {s.seat: s for s in had.seats}
        if not info.hints and (had is None or had.hints):
            self._log("this table was created without hints: nobody may ask for one", LineKind.INFO)
        self.table_info = info
        self.table_at = self.clock()
        if not info.started or info.finished:
            return
        for status in info.seats:
            seat, old = status.seat, before.get(status.seat)
            if old is None or seat == self.seat or not status.name:
                continue
            who = f"{letter(seat)} {status.name}"
            if old.connected and not status.connected:
                self._gone.setdefault(seat, self.clock())  # (said once gone for a while)
            elif not old.connected and status.connected:
                self._gone.pop(seat, None)
                if seat in self._said_away:
                    self._said_away.discard(seat)
                    self._log(f"{who} is back", LineKind.INFO)
            elif status.bot and not old.bot:
                self._log(f"a bot plays for {who} until they are back", LineKind.INFO)

    def absences(self) -> None:
        """Log the seats gone for ``AWAY_GRACE`` seconds as away (each time the client
        hears from the server, and before the screen is drawn)."""
        if self.over or (self.table_info is not None and self.table_info.finished):
            self._gone.clear()
            return
        now = self.clock()
        for seat, since in list(self._gone.items()):
            if now - since < AWAY_GRACE or seat in self._said_away:
                continue
            status = self.seat_status(seat)
            if status.connected or status.bot or not status.name:
                self._gone.pop(seat)
                continue
            wait = self.bot_in(seat)
            then = (
                f": a bot plays for them in {wait:.0f} s unless they are back"
                if wait is not None
                else ": the table waits for them"
            )
            self._said_away.add(seat)
            self._log(f"{letter(seat)} {status.name} is away{then}", LineKind.INFO)
            self.changes += 1

    def clock_left(self, seat: int) -> float | None:
        """Seconds left on ``seat``'s running clock, reserve included (None: none runs)."""
        found = self._clock_of(seat)
        if found is None or found.left is None:
            return None
        return max(0.0, found.left - (self.clock() - self.prompt_at))

    def _clock_of(self, seat: int) -> SeatClock | None:
        return next((c for c in self.clocks or [] if c.seat == seat), None)

    def time_of(self, seat: int) -> str | None:
        """A seat's clock as the table shows it: ``0:25`` left for the decision it is
        making, or its reserve while it waits, short (``+3m``, ``+45s``: the row also has
        room for "you" and "1st"); None: no clock."""
        found = self._clock_of(seat)
        if found is None:
            return None
        left = self.clock_left(seat)
        if left is not None:
            return minutes(left)
        reserve = int(found.reserve)
        return f"+{reserve // 60}m" if reserve >= 60 else f"+{reserve}s"

    def bot_in(self, seat: int) -> float | None:
        """Seconds until a bot plays for an absent seat (None: no bot will, or one does)."""
        wait = self.seat_status(seat).takeover_in
        if wait is None:
            return None
        return max(0.0, wait - (self.clock() - self.table_at))

    def _chat(self, line: ChatLine) -> None:
        seat, name = line.seat, line.name
        who = f"{letter(seat)} {name}" if seat is not None else f"(spectator) {name}"
        text = f"{who} says: {line.text}"  # never like an event
        said_at = line.version
        at = len(self.log)
        for back in range(len(self.log) - 1, max(-1, len(self.log) - 200), -1):
            version = self.log[back].version
            if 0 <= version <= said_at:
                break
            if version > said_at >= 0:
                at = back  # an event after it was said: talk heard late (resent) goes before
        if at < len(self.log):
            self.log.insert(at, LogLine(text, LineKind.CHAT, version=said_at))
        else:
            self._log(text, LineKind.CHAT, version=said_at)

    def _log(self, text: str, kind: LineKind, *, event: bool = False, version: int = -1) -> None:
        self.log.append(LogLine(text, kind, event, version))
        if len(self.log) > LOG_LIMIT:
            del self.log[: len(self.log) - LOG_LIMIT]


_NOT_A_TURN = frozenset({"answer", "counter", "keep"})
"""The seat's own actions that are not its turn: answering another's offer, keeping cards.
The summary at its next turn still covers what the others did before them."""


def _is_turn(view: GameView, seat: int | None, prompt: Prompt | None) -> bool:
    """Whether the seat's own turn (expansion or card actions) is on."""
    return (
        prompt is not None
        and seat is not None
        and view.current == seat
        and view.phase in ("expand", "actions")
    )


def _score_sheet(view: GameView | None, running: dict[str, Any] | None) -> ScoreSheet | None:
    """The final sheet, else the running one (the engine's scoring of the view) as a model."""
    if view is not None and view.score is not None:
        return view.score
    try:
        return None if running is None else ScoreSheet.model_validate(running)
    except ValueError:
        return None  # (a sheet of another shape: none shown rather than a wrong one)


def since_your_turn(
    actions: list[tuple[int, SeenAction]],
    names: list[str | None],
    for_you: list[SeenAction] | None = None,
) -> list[str]:
    """What each other seat did since your last action, a line each in seat order, and
    first what was done in your name (your clock ran out, a bot played for you, or your
    client made your only possible move).
    Haggling is counted, not told, and the board's costs left out (the log has both): a
    line says the offers a seat made, the trades it completed and what it did on the board
    or at the bank, so that it fits the log's half of an 80-column screen.

    >>> from pydantic import TypeAdapter
    >>> seen = TypeAdapter(SeenAction).validate_python
    >>> since_your_turn([(1, seen({"kind": "pass"})), (2, seen({"kind": "ship", "space": "TY",
    ...                  "pay": ["wild"]}))], ["Ann", "Bob", "Cyd"])
    ['since your last turn:', '  B Bob: pass', '  C Cyd: build a ship in TY']
    >>> since_your_turn([(1, seen({"kind": "pass"}))], ["Ann", "Bob"], [seen({"kind": "pass"})])
    ['since your last turn:', '  done for you: pass', '  B Bob: pass']
    >>> offer = seen({"kind": "propose", "to": [0, 2], "give": ["orange"], "get": ["green"]})
    >>> since_your_turn([(1, offer), (1, seen({"kind": "withdraw"})), (1, offer),
    ...                  (1, seen({"kind": "complete", "with": 2})),
    ...                  (1, seen({"kind": "bank_draw", "pay": ["green"]}))], ["Ann", "Bob", "Cyd"])
    ['since your last turn:', '  B Bob: 2 offers, traded with C Cyd, discard green, draw 1']
    """
    by_seat: dict[int, list[SeenAction]] = {}
    for seat, action in actions:
        by_seat.setdefault(seat, []).append(action)
    parts = [
        f"  {who(seat, names)}: {_brief(done, names)}" for seat, done in sorted(by_seat.items())
    ]
    if for_you:
        mine = ", ".join(describe_action(action.wire(), names) for action in for_you)
        parts.insert(0, f"  done for you: {mine}")
    return ["since your last turn:", *parts]


_PAID = frozenset({"move", "city", "ship"})


def _brief(actions: list[SeenAction], names: list[str | None]) -> str:
    """One seat's actions in few words: its offers and counter-offers counted, its
    answers and withdrawals left to the log, everything else said."""
    said: list[str] = []
    offers = sum(1 for a in actions if isinstance(a, ProposeAction))
    counters = sum(1 for a in actions if isinstance(a, CounterAction))
    if offers:
        said.append(f"{offers} offer{'s' if offers > 1 else ''}")
    if counters:
        said.append(f"{counters} counter-offer{'s' if counters > 1 else ''}")
    for action in actions:
        if isinstance(action, CompleteAction):
            said.append(f"traded with {who(action.with_, names)}")
        elif action.kind in _PAID:  # (what it cost is in the log: the line stays short)
            said.append(describe_target(action.wire(), names))
        elif action.kind not in TRADE_TALK:
            said.append(describe_action(action.wire(), names))
    answers = [a for a in actions if isinstance(a, AnswerAction)]
    if not said and answers:
        said.append(describe_action(answers[-1].wire(), names))
    return ", ".join(said) or "nothing"


def minutes(seconds: float) -> str:
    """``m:ss``, as a clock shows it.

    >>> minutes(200.4), minutes(9.9)
    ('3:20', '0:09')
    """
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
