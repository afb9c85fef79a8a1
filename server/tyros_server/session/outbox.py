"""Every message the session sends, built from a table as it stands now.

Nothing here changes a table but its bookkeeping of what was sent (``Table.sent``, the
spectators' shared resync): the parts of the session decide what to say, and to whom;
the :class:`Outbox` says it in the protocol's words.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_rules import (
    Action,
    Phase,
    action_to_json,
    event_versions,
    event_view,
    legal_actions,
    running_points,
    seats_to_act,
    view,
)

from ..fairness import fairness
from ..tables import ConnId, Table
from .guards import Guard

log = logging.getLogger("tyros.session")

RESYNC_EVENTS = 200
"""Events replayed to a (re)joining connection; its view holds the rest."""


@dataclass(slots=True)
class Send:
    conn: ConnId
    message: dict[str, Any]


@dataclass(slots=True)
class Close:
    conn: ConnId
    code: int
    reason: str
    abort: bool = False
    """Cut it now, without the closing handshake (a flood: it would not read the close)."""


Output = list[Send | Close]


class Outbox:
    """Builds the session's messages; ``clock`` gives the deadlines' and clocks' now."""

    def __init__(self, clock: Callable[[], float], takeover_wait: float | None) -> None:
        self.clock = clock
        self.takeover_wait = takeover_wait
        """Seconds before a bot plays an absent seat (None: no bot will)."""

    def error(self, conn: ConnId, re: int | None, code: ErrorCode, message: str) -> Send:
        log.debug("error %s to connection %d", code.value, conn)
        return Send(conn, {"type": "error", "re": re, "code": code.value, "message": message})

    def refuse(self, conn: ConnId, re: int | None, guard: Guard, **fill: Any) -> Send:
        """A guard's refusal (see :mod:`.guards`), its words filled in with ``fill``."""
        return self.error(conn, re, guard.code, guard.said(**fill))

    def accepted(self, conn: ConnId, re: int | None, version: int) -> Send:
        """What the connection sent (an action, a line of talk) was taken at ``version``."""
        return Send(conn, {"type": "accepted", "re": re, "version": version})

    def advice(self, conn: ConnId, re: int | None, version: int, action: Action | None) -> Send:
        """The takeover bot's choice for a seat that asked for a hint (None: no advice)."""
        return Send(
            conn,
            {
                "type": "advice",
                "re": re,
                "version": version,
                "action": None if action is None else action_to_json(action, BOARD),
            },
        )

    def welcome(
        self,
        re: int | None,
        table: Table,
        seat: int | None,
        name: str | None,
        token: str | None,
        note: str | None = None,
    ) -> dict[str, Any]:
        welcome = {
            "type": "welcome",
            "re": re,
            "protocol": PROTOCOL_VERSION,
            "table": table.name,
            "seat": seat,
            "name": name,
            "token": token,
        }
        return welcome if note is None else {**welcome, "note": note}

    def table_info(self, table: Table) -> dict[str, Any]:
        seats = []
        wait = self.takeover_wait
        playing = table.state is not None and not table.finished
        for seat in range(table.options.players):
            if seat < len(table.seats):
                slot = table.seats[seat]
                status: dict[str, Any] = {
                    "seat": seat,
                    "name": slot.name,
                    "connected": slot.conn is not None,
                    "bot": slot.bot,
                }
                if slot.program:
                    status["program"] = True
                if wait is not None and playing and slot.absent_since is not None and not slot.bot:
                    status["takeover_in"] = round(
                        max(0.0, slot.absent_since + wait - self.clock()), 1
                    )
                seats.append(status)
            else:
                seats.append({"seat": seat, "name": None, "connected": False, "bot": False})
        return {
            "name": table.name,
            "players": table.options.players,
            "setup": table.options.setup,
            "seats": seats,
            "started": table.state is not None,
            "finished": table.finished,
            "spectators": len(table.spectators),
            **fairness(table.options.seed, table.salt, table.finished),
            **({"clock": table.clock} if table.clock is not None else {}),
            **({} if table.hints else {"hints": False}),
            **({"bot_level": table.bot_level} if table.bot_level is not None else {}),
            **self._winners(table),
        }

    def left_info(self, table: Table) -> dict[str, Any]:
        """A finished table's row once nobody is at it: the row it keeps in the list after
        it leaves memory, and after a restart (stored as the game ends: a seat a bot played
        for its absent owner at the end says so, whoever comes back later)."""
        info = self.table_info(table)
        seats = [{**seat, "connected": False} for seat in info["seats"]]
        return {**info, "seats": seats, "spectators": 0}

    @staticmethod
    def _winners(table: Table) -> dict[str, Any]:
        score = table.state.score if table.state is not None and table.finished else None
        return {"winners": list(score["winners"])} if score is not None else {}

    def audience(self, table: Table) -> list[tuple[ConnId, int | None]]:
        seated = [
            (slot.conn, seat) for seat, slot in enumerate(table.seats) if slot.conn is not None
        ]
        return [*seated, *((conn, None) for conn in sorted(table.spectators))]

    def table_update(self, table: Table) -> Output:
        """Who sits at ``table``, to everyone there."""
        message = {"type": "table", "table": self.table_info(table)}
        return [Send(conn, message) for conn, _ in self.audience(table)]

    def table(self, conn: ConnId, table: Table) -> Send:
        """Who sits at ``table``, to one newcomer."""
        return Send(conn, {"type": "table", "table": self.table_info(table)})

    def tables(
        self,
        conn: ConnId,
        re: int | None,
        tables: list[dict[str, Any]],
        next_page: str | None,
        bot_level: str,
    ) -> Send:
        """One page of the table list (``next_page``: where the next starts, if any)."""
        return Send(
            conn,
            {
                "type": "tables",
                "re": re,
                "tables": tables,
                "next": next_page,
                "bot_level": bot_level,
            },
        )

    def record(self, conn: ConnId, re: int | None, table: str, record: dict[str, Any]) -> Send:
        """A game's record, for a replay."""
        return Send(conn, {"type": "record", "re": re, "table": table, "record": record})

    def update(
        self,
        table: Table,
        viewer: int | None,
        events: list[dict[str, Any]],
        public: dict[str, Any] | None = None,
        versions: list[int] | None = None,
        points: list[int] | None = None,
    ) -> dict[str, Any]:
        """``viewer``'s update of ``events`` (the last of the log); ``public``, the state's
        spectator view, ``versions``, the events' versions, and ``points``, the running
        points, if already built."""
        state = table.state
        assert state is not None
        if versions is None:
            versions = event_versions(events, state.version)
        shown = [
            seen
            for event, version in zip(events, versions, strict=True)
            if (seen := event_view(event, viewer, version)) is not None
        ]
        if table.decided_by:
            for seen in shown:
                if seen["type"] == "action" and (by := table.decided_by.get(seen["version"])):
                    seen["by"] = by
        prompt = None
        if viewer is not None and viewer in seats_to_act(state):
            deadline = None
            if (
                state.phase == Phase.TRADE
                and viewer != state.current
                and table.trade_deadline is not None
            ):
                deadline = max(0.0, table.trade_deadline - self.clock())
            prompt = {
                "id": table.prompts[viewer],
                "version": state.version,
                "deadline": deadline,
                "legal": [action_to_json(a, BOARD) for a in legal_actions(state, viewer)],
            }
        update = {
            "type": "update",
            "version": state.version,
            "events": shown,
            "view": view(state, viewer, public),
            "prompt": prompt,
        }
        if table.clocks is not None and not table.finished:
            update["clocks"] = table.clocks.shown(self.clock())
        if state.score is None:
            update["points"] = points if points is not None else running_points(state)
        return update

    def broadcast(self, table: Table, *, resync: bool = False) -> Output:
        state = table.state
        assert state is not None and state.log is not None
        start = max(0, len(state.log) - RESYNC_EVENTS) if resync else table.sent
        events = state.log[start:]
        table.sent = len(state.log)
        public = view(state, None)  # the part of every view that all may see, built once
        versions = event_versions(events, state.version)
        points = running_points(state) if state.score is None else None
        out: Output = [
            Send(slot.conn, self.update(table, seat, events, public, versions, points))
            for seat, slot in enumerate(table.seats)
            if slot.conn is not None
        ]
        if table.spectators:
            update = self.update(table, None, events, public, versions, points)  # one for all
            out += [Send(conn, update) for conn in sorted(table.spectators)]
        return out

    def spectator_sync(self, conn: ConnId, table: Table) -> Output:
        """A spectator's first update: the same message for all who arrive at one version."""
        state = table.state
        if state is None:
            return []
        if table.public_resync is None or table.public_resync[0] != state.version:
            assert state.log is not None
            recent = state.log[max(0, len(state.log) - RESYNC_EVENTS) :]
            table.public_resync = (state.version, self.update(table, None, recent))
        update = table.public_resync[1]
        if table.clocks is not None and not table.finished:  # the times as they stand now
            update = {**update, "clocks": table.clocks.shown(self.clock())}
        return [Send(conn, update)]

    def sync(self, conn: ConnId, table: Table, viewer: int | None) -> Output:
        """A full resync for one connection: its view and the recent events."""
        state = table.state
        if state is None:
            return []
        assert state.log is not None
        recent = state.log[max(0, len(state.log) - RESYNC_EVENTS) :]
        return [Send(conn, self.update(table, viewer, recent))]

    def talk_sync(self, conn: ConnId, table: Table, seat: int | None) -> Output:
        """The recent talk a connection that joins or comes back may hear."""
        return [Send(conn, line) for line in table.talk.recent(seat=seat)]


def clip(text: str, limit: int = 80) -> str:
    """Never echo a long piece of the client's input back."""
    return text if len(text) <= limit else text[:limit] + "..."
