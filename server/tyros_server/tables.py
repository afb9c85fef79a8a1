"""A table in memory: its seats, its game, and the bookkeeping of who is asked what.

:class:`Undo` captures what one action changes at a table, so that an action the
database refused (at once, or when a batch of actions fails to commit) is taken back
as if it had never been played.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tyros_rules import GameState, Options, Phase, seats_to_act

from .chat import TableTalk
from .clocks import Clocks

ConnId = int
HOUSE = "house:"
"""How the token digest of a seat the server's own bot holds begins (``house:TABLE:SEAT``,
unique as digests are, and never the hex digest of a token)."""


@dataclass(slots=True)
class SeatSlot:
    name: str
    digest: str
    conn: ConnId | None = None
    absent_since: float | None = None
    bot: bool = False
    """A takeover bot is playing this seat until its owner returns."""
    program: bool = False
    """The seat's owner is a program (it said so in its ``hello``)."""

    @property
    def house(self) -> bool:
        """A bot of the server's own holds this seat for good (asked for by the ``hello``
        that created the table): no token takes it (see :data:`HOUSE`)."""
        return self.digest.startswith(HOUSE)


@dataclass(slots=True)
class Table:
    name: str
    options: Options
    trade_seconds: int
    seats: list[SeatSlot] = field(default_factory=list)
    spectators: set[ConnId] = field(default_factory=set)
    state: GameState | None = None
    sent: int = 0
    """How much of the game's log has been broadcast."""
    trade_deadline: float | None = None
    salt: str = ""
    """Secret until the game ends; with the seed it makes the table's commitment."""
    created_by: str = ""
    """The address that created the table (its tables per minute are counted)."""
    changed: float = 0.0
    """When something last happened here: a seat came or went, an action was played."""
    attended: float = 0.0
    """When one of its people (a seat not the server's bot's) last came or sent anything:
    a table of the server's bots nobody attends is paused in the end."""
    notice_due: float | None = None
    """When the spectators' comings and goings since the last notice are announced."""
    public_resync: tuple[int, dict[str, Any]] | None = None
    """(version, update) sent to every spectator who arrives at that version."""
    record_cache: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    """Format -> (version, record) last sent for ``get_record``: a spectator's record of
    the game in memory, asked again at the same version, costs nothing (a full record is
    made from the store, off the loop: see ``session.archive``)."""
    prompts: dict[int, int] = field(default_factory=dict)
    """Each seat to act: the version its current decision began at (its prompt's id). It
    stays while the seat has not acted, whatever the others do meanwhile (answer a trade,
    keep cards), and an action made for any version since is taken if legal on arrival."""

    overtaken: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Each seat whose last decision was ended by another seat (a trade completed or
    withdrawn while it was asked, time up): (the version it began at, the one it ended at)."""

    last_acted: dict[int, int] = field(default_factory=dict)
    """The version each seat's own latest action made: anything it sent for an earlier
    version is a copy or an afterthought (stale)."""
    clock: dict[str, int] | None = None
    """The table's clock setting (``decision`` and ``reserve`` seconds), if it has one."""
    clocks: Clocks | None = None
    """The seats' clocks, once the game is on (a table with a clock)."""
    decided_by: dict[int, str] = field(default_factory=dict)
    """Game version -> who made the decision that led to it, when not the seat's owner
    (``clock``: its time ran out; ``takeover``: a bot played for the absent owner)."""
    talk: TableTalk = field(default_factory=TableTalk)
    """What was said here lately (all of it is in the database)."""
    hints: bool = True
    """Whether the players may ask their clients for hints (a table option)."""
    bot_level: str | None = None
    """The level of the server's own bots here (None: it has none)."""
    hint_asked: dict[int, int] = field(default_factory=dict)
    """Seat -> the game version it asked for a hint at: the decision it then had before it
    (still standing when it acts) is marked in the record as made after a hint."""
    moment: tuple[Any, ...] = ()
    """What every seat's decision is about: the phase, whose turn, the trade on the table
    and the round. While it stays, the seats deciding keep their prompts."""

    def renew_prompts(self, actor: int | None = None) -> None:
        """After ``actor`` acted (None: a new or resumed game): a seat still deciding the
        same question (a trade answer while others answer, a keep while others keep) keeps
        its prompt; the actor, a seat newly asked, and everyone when the question changed
        (the trade completed, the turn passed) get a new one."""
        state = self.state
        assert state is not None
        moment = (state.phase, state.current, state.trade, state.round)
        same = moment == self.moment
        deciding = seats_to_act(state)
        for seat, since in self.prompts.items():
            if seat != actor and not (same and seat in deciding):
                self.overtaken[seat] = (since, state.version)
        self.moment = moment
        if actor is not None:
            self.last_acted[actor] = state.version
        self.prompts = {
            seat: kept
            if same and seat != actor and (kept := self.prompts.get(seat)) is not None
            else state.version
            for seat in deciding
        }

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.phase == Phase.OVER

    def people(self) -> frozenset[int]:
        """The seats people hold: neither the server's own bots nor programs."""
        return frozenset(
            seat
            for seat, slot in enumerate(self.seats)
            if slot.name and not slot.house and not slot.program
        )

    def awaits_a_person(self) -> bool:
        """Whether an open trade offer waits for the answer of a seat a person plays
        (neither the server's own bot nor a program): the proposer, if the server's bot,
        then waits too, until the person answers or the time to answer runs out. An
        offer waiting only for programs, with nothing to do but withdraw, waits for them
        as well (they answer at once)."""
        state = self.state
        if state is None or state.phase != Phase.TRADE:
            return False
        pending = [seat for seat in seats_to_act(state) if seat != state.current]
        if not self.people().isdisjoint(pending):
            return True
        return bool(pending) and not any(answer > 0 for answer in state.answers)


@dataclass(slots=True)
class Undo:
    """What one action changed at ``table``, captured before it: ``restore`` puts it back."""

    table: Table
    state: GameState
    prompts: dict[int, int]
    overtaken: dict[int, tuple[int, int]]
    last_acted: dict[int, int]
    moment: tuple[Any, ...]
    sent: int
    trade_deadline: float | None
    changed: float
    clocks: Clocks | None
    decided_by: dict[int, str]
    hint_asked: dict[int, int]
    reply: tuple[ConnId, int | None] | None = None
    """The connection that sent the action and its message id (None: a timer's action)."""

    @classmethod
    def capture(cls, table: Table) -> Undo:
        assert table.state is not None
        return cls(
            table,
            table.state.copy(keep_log=True),
            dict(table.prompts),
            dict(table.overtaken),
            dict(table.last_acted),
            table.moment,
            table.sent,
            table.trade_deadline,
            table.changed,
            None if table.clocks is None else table.clocks.copy(),
            dict(table.decided_by),
            dict(table.hint_asked),
        )

    def restore(self) -> None:
        table = self.table
        assert table.state is not None
        table.state.revert_to(self.state)
        table.prompts, table.overtaken = self.prompts, self.overtaken
        table.last_acted, table.moment = self.last_acted, self.moment
        table.sent, table.trade_deadline, table.changed = (
            self.sent,
            self.trade_deadline,
            self.changed,
        )
        table.clocks, table.decided_by = self.clocks, self.decided_by
        table.hint_asked = self.hint_asked
        table.public_resync = None  # it may hold an update of the state taken back


@dataclass(slots=True)
class Batch:
    """Frames handled together (see ``Session.begin_batch``): the actions they applied,
    which of those were taken back, and each frame's output, held until the commit."""

    undos: list[Undo] = field(default_factory=list)
    """Every action applied in the batch, in order (the list keeps each one alive)."""
    settled: int = 0
    """How many of :attr:`undos` were committed, or taken back, already."""
    failed: set[int] = field(default_factory=set)
    """The ids of the undos taken back: their actions were never stored."""
    chunks: list[tuple[list[Any], list[Undo]]] = field(default_factory=list)
    """Each frame's output, and the actions it applied."""

    def pending(self) -> list[Undo]:
        return self.undos[self.settled :]

    def fail(self, undos: list[Undo]) -> None:
        """Take these actions back, the latest first."""
        for undo in reversed(undos):
            undo.restore()
            self.failed.add(id(undo))
        self.settled = len(self.undos)

    def failed_undo(self, undo: Undo) -> bool:
        return id(undo) in self.failed
