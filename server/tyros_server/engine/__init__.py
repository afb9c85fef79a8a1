"""The pure rules engine of Tyros: no I/O, no asyncio, no pydantic.

A game is a :class:`GameState`; :func:`new_game` sets one up,
:func:`legal_actions` lists what a seat may do, :func:`push` applies an action
(raising :class:`IllegalActionError` and changing nothing when it is illegal),
and :func:`view` is the only way state leaves the engine.

>>> state = new_game(Options(players=3, seed=1))
>>> seat = seats_to_act(state)[0]
>>> action = legal_actions(state, seat)[0]
>>> push(state, seat, action)
>>> state.version
1
"""

from .actions import Action, Kind, Seat, action_to_json, describe_action, parse_action
from .errors import EngineError, IllegalActionError, Reason, RecordError
from .legal import check_action, legal_actions, proposal_problem, seats_to_act
from .record import RECORD_FORMAT, export_record, replay
from .rules import new_game, push, push_unchecked
from .scoring import score_game
from .state import GameState, Options, Phase
from .views import Viewer, event_view, view

__all__ = [
    "RECORD_FORMAT", "Action", "EngineError", "GameState", "IllegalActionError", "Kind",
    "Options", "Phase", "Reason", "RecordError", "Seat", "Viewer", "action_to_json",
    "check_action", "describe_action", "event_view", "export_record", "legal_actions",
    "new_game", "parse_action", "proposal_problem", "push", "push_unchecked", "replay",
    "score_game", "seats_to_act", "view",
]
