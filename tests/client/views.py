"""Views of positions that tests state by their few telling fields, made whole (valid as
the protocol's :class:`~tyros_protocol.views.GameView`) from a real view: the rest is a new
4-player game's, as the seat saw it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tyros_protocol.views import GameView
from tyros_rules import Options, new_game, view


def whole_view(fields: Mapping[str, Any], seat: int = 0) -> dict[str, Any]:
    """Seat ``seat``'s view of a new game (seed 1), with ``fields`` in place, as a frame
    carries it."""
    base: dict[str, Any] = json.loads(json.dumps(view(new_game(Options(players=4, seed=1)), seat)))
    return {**base, **fields}


def game_view(fields: Mapping[str, Any], seat: int = 0) -> GameView:
    """:func:`whole_view` as the protocol's model."""
    return GameView.model_validate(whole_view(fields, seat))
