"""A recorded game, step by step, as any seat saw it: the model behind ``--replay``.

A :class:`Replay` plays a record (``tyros-arena --record``, ``tyros-server export``)
through the engine once, checking every event (:func:`~tyros_rules.replay`), and
keeps the state after each decision. A *position* is a number of events shown, from 0
(nothing yet) to all of them; the state at a position is the one after the last decision
among those events. What a seat sees there is exactly what it saw in the game: the
engine's :func:`~tyros_rules.view` of that state and the
:func:`~tyros_rules.event_view` of each event shown, through the one gate for
hidden information. A finished game may also be shown with every hand open.

>>> from tyros_client.arena import play_game
>>> from tyros_rules import export_record
>>> game = play_game(["random"] * 3, seed=4)
>>> replay = Replay(export_record(game.state))
>>> replay.decisions == game.state.version, replay.end == len(game.state.log)
(True, True)
>>> replay.view(replay.end, 0)["score"] == game.state.score
True
>>> replay.next_decision(0) > 0, replay.previous_decision(replay.end) < replay.end
(True, True)
"""

from __future__ import annotations

import asyncio
import bisect
import json
from typing import Any

from tyros_protocol.board import BOARD, Board
from tyros_rules import (
    PUBLIC_FORMAT,
    GameState,
    RecordError,
    events_seen,
    public_views,
    replay,
    view,
)
from websockets.exceptions import WebSocketException

from .connection import check_certificate, hopeless_failure, open_websocket
from .session import record_message
from .tls import CertificateRefused, ServerTrust

Viewer = int | None
"""A seat, or None for a spectator."""


class Replay:
    """A record's states after each decision, and its events, to show at any position."""

    def __init__(self, record: dict[str, Any], board: Board = BOARD) -> None:
        self.states: list[GameState] = []
        self.record = record
        self.public_views: list[dict[str, Any]] | None = None
        """A game not over, as a spectator saw it (``get_record``): its views, no states."""
        if isinstance(record, dict) and record.get("format") == PUBLIC_FORMAT:
            self._load_public(record)
        else:
            # Raises RecordError unless every event checks out.
            final = replay(record, board, snapshots=self.states)
            assert final.log is not None
            self.events: list[dict[str, Any]] = list(final.log)
            self.players = final.players
            self.finished = final.score is not None
        self.names = [str(p.get("name", f"seat {p.get('seat')}")) for p in record["players"]]
        self.decided_by: dict[int, str] = {
            int(d["version"]): str(d["by"])
            for d in record.get("decided_by") or []
            if isinstance(d, dict) and isinstance(d.get("version"), int)
        }
        """Decisions the server made for a seat, by version: ``clock`` or ``takeover``."""
        self.hinted: set[int] = {
            int(h["version"])
            for h in record.get("hinted") or []
            if isinstance(h, dict) and isinstance(h.get("version"), int)
        }
        """Decisions made after their seat asked for a hint, by version."""
        self.chat: list[dict[str, Any]] = [
            line
            for line in record.get("chat") or []
            if isinstance(line, dict) and isinstance(line.get("version"), int)
        ]
        """The table talk, each line with the game version it was said at."""
        self.action_at = [at for at, e in enumerate(self.events) if e.get("type") == "action"]
        """The index of each decision's event, in order."""
        self.round_at = [at for at, e in enumerate(self.events) if e.get("type") == "round_start"]
        views: list[dict[str, Any]] = self.public_views or []
        current = [v.get("current") for v in views] or [s.current for s in self.states]
        self.turn_at = [
            done for done in range(1, len(current) - 1) if current[done] != current[done - 1]
        ]
        """Decisions made when another player's turn begins (the seat to act changed)."""
        if len(current) != len(self.action_at) + 1:
            raise RecordError("the record's decisions and its states do not match")

    def _load_public(self, record: dict[str, Any]) -> None:
        views, events = public_views(record), record.get("events")
        if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
            raise RecordError("a damaged public replay (its events)")
        if not isinstance(record.get("players"), list):
            raise RecordError("a public replay names its players")
        self.public_views = views
        self.events = events
        self.players = int(views[0].get("players", len(record.get("players", []))))
        self.finished = bool(record.get("finished"))

    @property
    def public(self) -> bool:
        """Only what a spectator saw (a game not over): no seat's view, no hands."""
        return self.public_views is not None

    # Positions ---------------------------------------------------------------------

    @property
    def end(self) -> int:
        """The last position: every event shown."""
        return len(self.events)

    @property
    def decisions(self) -> int:
        return len(self.action_at)

    def decisions_before(self, position: int) -> int:
        """How many decisions the first ``position`` events hold."""
        return bisect.bisect_left(self.action_at, position)

    def state(self, position: int) -> GameState:
        """The game after the last decision shown at ``position`` (not in a public replay)."""
        if self.public_views is not None:
            raise RecordError("a spectator's replay holds no game states")
        return self.states[self.decisions_before(self.clamp(position))]

    def clamp(self, position: int) -> int:
        return max(0, min(self.end, position))

    def at_decision(self, decision: int) -> int:
        """The position that shows decision number ``decision`` (1 is the first) and what
        followed from it, up to the next decision."""
        if decision <= 0:
            return self.action_at[0] if self.action_at else self.end
        if decision >= self.decisions:
            return self.end
        return self.action_at[decision]

    def next_decision(self, position: int) -> int:
        """The position just after the next decision: it and its consequences shown."""
        return self.at_decision(self.decisions_before(self.clamp(position)) + 1)

    def previous_decision(self, position: int) -> int:
        position = self.clamp(position)
        if position <= self.at_decision(0):
            return 0 if position < self.at_decision(0) else position  # (in the deal: back)
        done = self.decisions_before(position)
        if position > self.at_decision(done):  # partway: back to where this decision began
            return self.at_decision(done)
        return self.at_decision(done - 1) if done > 1 else self.at_decision(0)

    def next_turn(self, position: int) -> int:
        """The position where the next player's turn begins (its first decision next)."""
        at = self.clamp(position)
        found = bisect.bisect_left(self.turn_at, self.decisions_before(at))
        for done in self.turn_at[found : found + 2]:
            if self.at_decision(done) > at:
                return self.at_decision(done)
        return self.end

    def previous_turn(self, position: int) -> int:
        """The position where the last turn before ``position`` began (or the deal)."""
        found = bisect.bisect_left(self.turn_at, self.decisions_before(self.clamp(position)))
        return self.at_decision(self.turn_at[found - 1]) if found > 0 else self.at_decision(0)

    def next_round(self, position: int) -> int:
        # The first round start not yet shown (one just ahead of ``position`` counts).
        found = bisect.bisect_left(self.round_at, self.clamp(position))
        return self.round_at[found] + 1 if found < len(self.round_at) else self.end

    def previous_round(self, position: int) -> int:
        found = bisect.bisect_left(self.round_at, self.clamp(position) - 1) - 1
        return self.round_at[found] + 1 if found >= 0 else 0

    # What a seat saw ---------------------------------------------------------------

    def view(self, position: int, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` saw of the game at ``position`` (the engine's view)."""
        if self.public_views is not None:
            if viewer is not None:
                raise RecordError("a game not over is replayed as a spectator saw it only")
            return self.public_views[self.decisions_before(self.clamp(position))]
        return view(self.state(position), viewer)

    def events_seen(self, position: int, viewer: Viewer) -> list[dict[str, Any]]:
        """The first ``position`` events as ``viewer`` saw them, with their versions."""
        if self.public_views is not None:
            if viewer is not None:
                raise RecordError("a game not over is replayed as a spectator saw it only")
            return self.events[: self.clamp(position)]
        return [seen for _, seen in events_seen(self.events[: self.clamp(position)], viewer)]

    @property
    def may_open(self) -> bool:
        """Whether every hand may be shown: a finished game's full record (a spectator's
        record holds no hands, even of a game that is over)."""
        return self.finished and self.public_views is None

    def hands(self, position: int) -> list[dict[str, Any]]:
        """Every seat's cards and tiles at ``position``, for a finished game's open replay."""
        if not self.may_open:
            raise RecordError("hands are shown open only in a finished game's full record")
        state = self.state(position)
        return [
            {
                "seat": seat,
                "hand": view(state, seat)["hand"],
                "tiles": view(state, seat)["tiles"],
            }
            for seat in range(self.players)
        ]


async def fetch_record(url: str, table: str, trust: ServerTrust | None = None) -> dict[str, Any]:
    """A game's record from a tyros-server (``get_record``): a finished game's in full, a
    game not over as a spectator saw it; a ValueError says why not."""
    try:
        async with open_websocket(url, trust) as ws:
            check_certificate(ws, trust)
            await ws.send(json.dumps(record_message(table, 1)))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), RECORD_TIMEOUT))
                if message.get("type") == "error" and message.get("re") is None:
                    raise ValueError(f"the server says: {message.get('message', message)}")
                if message.get("re") != 1:
                    continue
                if message.get("type") == "record":
                    record = message.get("record")
                    if not isinstance(record, dict):
                        raise ValueError("the server sent no record")
                    return record
                raise ValueError(f"the server says: {message.get('message', message)}")
    except CertificateRefused as exc:
        raise ValueError(str(exc)) from exc
    except (OSError, TimeoutError, WebSocketException) as exc:
        hopeless = await hopeless_failure(url, exc, trust)
        raise ValueError(hopeless or f"cannot reach {url}: {exc}") from exc


RECORD_TIMEOUT = 30.0
"""Seconds to wait for the server's answer (it replays the game to write the record)."""


__all__ = ["Replay", "Viewer", "fetch_record"]
