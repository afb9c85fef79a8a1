"""Game records: one JSON document per game that lists everything that happened.

A record holds the options, the players and every event in order: each chance
outcome (the starting seat, every shuffle's resulting order, every tile and
card dealt or drawn) and every decision with its seat, then the score sheet.
The options hold the seed too; a replay does not need it, and a replayed
unfinished game plays on exactly as the original would have.
A program that does not share our RNG can check it; :func:`replay` feeds its
shuffles and decisions back through the engine and must reach the same state.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from tyros_protocol.board import BOARD, Board
from tyros_protocol.cards import parse_card

from .actions import parse_action
from .errors import IllegalActionError, RecordError
from .rules import SHUFFLE, new_game, push
from .scoring import running_points
from .state import GameState, Options
from .views import events_seen, view

RECORD_FORMAT = "tyros-record/1"
PUBLIC_FORMAT = "tyros-public-replay/1"


def export_record(state: GameState, names: list[str] | None = None) -> dict[str, Any]:
    """The game so far (finished or not) as one JSON-ready document."""
    if state.log is None:
        raise RecordError("this state keeps no log (a search copy?)")
    if names is None:
        names = [f"seat {seat}" for seat in range(state.players)]
    options = state.options.to_json()
    return {
        "format": RECORD_FORMAT,
        "options": options,
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(names)],
        "events": list(state.log),
        "actions": state.version,
        "finished": state.score is not None,
        "score": state.score,
    }


def public_record(state: GameState, names: list[str] | None = None) -> dict[str, Any]:
    """A game not over, as a spectator saw it, to replay: the spectator's view after the
    deal and after each decision (the first in full, then what changed: see
    :func:`public_views`), each seat's points if the game had ended there (public: the
    board alone decides them), and the events a spectator was shown (with their versions).
    Through the one gate for hidden information only: no hand, no tile in a hand, no seed.
    """
    snapshots: list[GameState] = []
    replay(export_record(state, names), state.board, snapshots=snapshots)
    events = [seen for _, seen in events_seen(state.log or [], None)]
    views = [view(snapshot, None) for snapshot in snapshots]
    return {
        "format": PUBLIC_FORMAT,
        "players": [
            {"seat": seat, "name": name}
            for seat, name in enumerate(names or [f"seat {s}" for s in range(state.players)])
        ],
        "finished": state.score is not None,
        "view": views[0],
        "changes": [
            {key: value for key, value in after.items() if before.get(key) != value}
            for before, after in pairwise(views)
        ],
        "points": [running_points(snapshot) for snapshot in snapshots],
        "events": events,
    }


def public_views(document: dict[str, Any]) -> list[dict[str, Any]]:
    """The spectator's view after the deal and after each decision, from a public replay
    (``view`` and one ``changes`` entry a decision: the view's keys whose values changed).

    >>> public_views({"view": {"a": 1, "b": 2}, "changes": [{"b": 3}, {}]})
    [{'a': 1, 'b': 2}, {'a': 1, 'b': 3}, {'a': 1, 'b': 3}]
    """
    first, changes = document.get("view"), document.get("changes")
    if not isinstance(first, dict) or not isinstance(changes, list):
        raise RecordError("a public replay has a view and its changes")
    out = [first]
    for change in changes:
        if not isinstance(change, dict) or not set(change) <= set(first):
            raise RecordError("a damaged public replay (a change that is not the view's)")
        out.append({**out[-1], **change})
    return out


def _chance_outcomes(
    events: list[dict[str, Any]], board: Board, seat_drawn: bool
) -> list[list[int]]:
    """The recorded chance outcomes in order: the starting seat if drawn, then the shuffles."""
    script = []
    for event in events:
        if event.get("type") == "starting_seat" and seat_drawn:
            script.append([int(event["seat"])])
            continue
        if event.get("type") != SHUFFLE:
            continue
        pile, order = event.get("pile"), event.get("order")
        if not isinstance(order, list):
            raise RecordError("a shuffle event has no order")
        if pile == "tiles":
            script.append([board.parse_space(str(label)) for label in order])
        elif pile == "cards":
            script.append([parse_card(str(name)) for name in order])
        else:
            raise RecordError(f"unknown pile {pile!r} in a shuffle event")
    return script


def replay(
    record: dict[str, Any], board: Board = BOARD, snapshots: list[GameState] | None = None
) -> GameState:
    """Play a record's shuffles and decisions through the engine; check every event.

    Raises :class:`RecordError` if the record is malformed, holds an illegal
    decision, or if the engine's events differ from the recorded ones. With
    ``snapshots``, a copy of the state (without its log) is appended to it after the
    deal and after each decision.
    """
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a {RECORD_FORMAT} document")
    events = record.get("events")
    if not isinstance(events, list):
        raise RecordError("the record has no event list")
    try:
        options = Options(**record["options"])
        script = _chance_outcomes(events, board, options.starting_seat is None)
        state = new_game(options, board, script=script)
        if snapshots is not None:
            snapshots.append(state.copy())
        for event in events:
            if event.get("type") == "action":
                push(state, event["seat"], parse_action(event["action"], board))
                if snapshots is not None:
                    snapshots.append(state.copy())
        if state.script:
            raise RecordError("the record holds chance outcomes the game never used")
        state.script = None  # from here on, chance comes from the seed again
    except IllegalActionError as exc:
        raise RecordError(f"the record holds an illegal decision: {exc}") from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordError(f"malformed record: {exc!r}") from exc
    finished = state.score is not None
    if (
        record.get("actions") != state.version
        or record.get("finished") != finished
        or record.get("score") != state.score
    ):
        raise RecordError(
            "the record's action count, finished flag or score sheet does not match its events"
        )
    if state.log != events:
        assert state.log is not None
        at = next(
            (i for i, (a, b) in enumerate(zip(state.log, events, strict=False)) if a != b),
            min(len(state.log), len(events)),
        )
        raise RecordError(f"replay differs from the record at event {at}")
    return state
