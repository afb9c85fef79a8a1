"""The rules of Tyros as a library of their own: the server, every client and every bot
know the game from here (it depends on :mod:`tyros_protocol` alone). Pure: no I/O, no
asyncio, no pydantic.

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

Search (the bots) uses the rest, and nothing else of the engine:

- building a state from what a seat sees, :func:`state_from_view` (the inverse of
  :func:`view`; :class:`Unseen` and :func:`deal_unseen` fill in what the view hides);
  copying it, :meth:`GameState.copy`;
- legal actions: :func:`legal_actions`, or grouped as search needs them:
  :func:`card_actions` of one kind, :func:`bank_trades` one per trade whatever it pays,
  :func:`fewest_wilds` one per move or city, :func:`playable_tiles`;
- applying an action taken from those: :func:`push_unchecked`;
- the vocabulary to read and build actions and states with: the kinds as plain ints
  (``K_*``), the fields of each kind that search reads (``MOVE_PAY``, ``PICK_TAKE``, ...;
  :mod:`.actions` has one for every field of :data:`~.actions.SPECS`), the phases
  (``P_*``), card-count arithmetic (:data:`ONE`, :func:`plus`, :func:`minus`), and the
  numbers of the rules search needs (:mod:`.constants` holds every one).
"""

from .actions import (
    ANSWER_ACCEPT,
    CITY_PAY,
    COMPLETE_WITH,
    COUNTER_GET,
    COUNTER_GIVE,
    DRAW_PAY,
    K_ANSWER,
    K_BANK_DRAW,
    K_BANK_PICK,
    K_CITY,
    K_COMPLETE,
    K_COUNTER,
    K_EXPAND,
    K_KEEP,
    K_MOVE,
    K_PASS,
    K_PROPOSE,
    K_RETURN_TILE,
    K_SHIP,
    K_WITHDRAW,
    KEPT,
    MOVE_PAY,
    MOVE_TO,
    PAY_AT,
    PICK_PAY,
    PICK_TAKE,
    PROPOSE_GET,
    PROPOSE_GIVE,
    PROPOSE_TO,
    RETURNED_TILE,
    SHIP_PAY,
    TRADE_GET,
    TRADE_GIVE,
    TRADE_PROPOSER,
    TRADE_TO,
    UNPAID_AT,
    Action,
    Kind,
    Seat,
    action_to_json,
    answer,
    bank_draw,
    bank_pick,
    encode_action,
    give_card,
    parse_action,
)
from .constants import (
    BONUS,
    CITY_COST,
    CITY_POINTS,
    MAX_SEATS,
    PLAYER_COUNTS,
    SHIP_CARDS_OF_COLOUR,
    SHIP_COST,
    SHIP_LIMIT,
    SHIP_POINTS,
)
from .errors import EngineError, IllegalActionError, Reason, RecordError
from .legal import (
    bank_trades,
    card_actions,
    check_action,
    fewest_wilds,
    is_last_round,
    legal_actions,
    playable_tiles,
    seats_to_act,
)
from .payments import ONE, covers, minus, plus, submultisets
from .record import (
    PUBLIC_FORMAT,
    RECORD_FORMAT,
    export_record,
    public_record,
    public_views,
    replay,
)
from .rules import RULES_VERSION, new_game, push, push_unchecked
from .scoring import running_points, score_game
from .state import (
    P_ACTIONS,
    P_EXPAND,
    P_GIVE_CARD,
    P_KEEP,
    P_OVER,
    P_TRADE,
    PENDING,
    GameState,
    Options,
    Phase,
)
from .views import (
    SeatView,
    Unseen,
    deal_unseen,
    event_versions,
    event_view,
    events_seen,
    state_from_view,
    unseen,
    view,
)

__all__ = [
    "ANSWER_ACCEPT",
    "BONUS",
    "CITY_COST",
    "CITY_PAY",
    "CITY_POINTS",
    "COMPLETE_WITH",
    "COUNTER_GET",
    "COUNTER_GIVE",
    "DRAW_PAY",
    "KEPT",
    "K_ANSWER",
    "K_BANK_DRAW",
    "K_BANK_PICK",
    "K_CITY",
    "K_COMPLETE",
    "K_COUNTER",
    "K_EXPAND",
    "K_KEEP",
    "K_MOVE",
    "K_PASS",
    "K_PROPOSE",
    "K_RETURN_TILE",
    "K_SHIP",
    "K_WITHDRAW",
    "MAX_SEATS",
    "MOVE_PAY",
    "MOVE_TO",
    "ONE",
    "PAY_AT",
    "PENDING",
    "PICK_PAY",
    "PICK_TAKE",
    "PLAYER_COUNTS",
    "PROPOSE_GET",
    "PROPOSE_GIVE",
    "PROPOSE_TO",
    "PUBLIC_FORMAT",
    "P_ACTIONS",
    "P_EXPAND",
    "P_GIVE_CARD",
    "P_KEEP",
    "P_OVER",
    "P_TRADE",
    "RECORD_FORMAT",
    "RETURNED_TILE",
    "RULES_VERSION",
    "SHIP_CARDS_OF_COLOUR",
    "SHIP_COST",
    "SHIP_LIMIT",
    "SHIP_PAY",
    "SHIP_POINTS",
    "TRADE_GET",
    "TRADE_GIVE",
    "TRADE_PROPOSER",
    "TRADE_TO",
    "UNPAID_AT",
    "Action",
    "EngineError",
    "GameState",
    "IllegalActionError",
    "Kind",
    "Options",
    "Phase",
    "Reason",
    "RecordError",
    "Seat",
    "SeatView",
    "Unseen",
    "action_to_json",
    "answer",
    "bank_draw",
    "bank_pick",
    "bank_trades",
    "card_actions",
    "check_action",
    "covers",
    "deal_unseen",
    "encode_action",
    "event_versions",
    "event_view",
    "events_seen",
    "export_record",
    "fewest_wilds",
    "give_card",
    "is_last_round",
    "legal_actions",
    "minus",
    "new_game",
    "parse_action",
    "playable_tiles",
    "plus",
    "public_record",
    "public_views",
    "push",
    "push_unchecked",
    "replay",
    "running_points",
    "score_game",
    "seats_to_act",
    "state_from_view",
    "submultisets",
    "unseen",
    "view",
]
