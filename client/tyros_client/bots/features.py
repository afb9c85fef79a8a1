"""Features of a position for each seat, and the learned value that weighs them.

:func:`features` describes one seat's position in numbers: the parts of the hand-set
evaluation (:class:`.evaluate.Analysis`: cities, ships, bonuses, hand) and what it leaves
out (tiles in hand against the free border spaces, ships and cities still to place, how
many free spaces of an empire its ships reach, cards and wilds held, where the seat sits
in the round), each beside the best other seat's. :class:`LearnedValue` weighs them with
weights fitted to the final totals of thousands of self-play games (``bench/learn.py``,
one linear model for each stage of the game: the card-action phases still to come),
shipped as ``data/value.json``; it needs nothing but the standard library.

>>> from tyros_rules import Options, new_game
>>> state = new_game(Options(players=4, seed=1))
>>> values = LearnedValue.shipped().values(Analysis(state))
>>> len(values), all(30 < v < 90 for v in values)
(4, True)
"""

from __future__ import annotations

import json
import operator
from functools import cache
from importlib import resources
from typing import Any

from tyros_rules import P_ACTIONS, GameState

from .evaluate import Analysis, target_distances

OWN = (
    "cities",
    "ships",
    "bonuses",
    "hand",
    "cards",
    "wilds",
    "tiles",
    "playable_tiles",
    "ships_to_place",
    "cities_to_place",
    "reach_1",
    "reach_3",
    "empires",
)
"""What :func:`features` says of a seat, in order; then the same of the best other seat
(by the evaluation's value), then :data:`SEATING`."""
SEATING = ("to_act", "acts_last", "three_players")
NAMES = (*OWN, *(f"best_other_{name}" for name in OWN), *SEATING)
"""Every feature's name, in the order of :func:`features`."""
STAGES = 7
"""Models: one for each number of card-action phases still to come, 0 to 6 (6: or more)."""


def all_parts(analysis: Analysis) -> list[tuple[float, float, float, float]]:
    """Every seat's evaluation in its parts (:meth:`Analysis.parts`), added up once."""
    state = analysis.state
    players = state.players
    cities, board = analysis.board_stages()
    return [
        (
            cities[seat],
            board[seat] - cities[seat],
            analysis.points[seat] - board[seat],
            analysis.plan(seat).hand_value(state.hands[seat]),
        )
        for seat in range(players)
    ]


def own_features(
    analysis: Analysis, seat: int, parts: tuple[float, float, float, float]
) -> list[float]:
    """What :data:`OWN` names, of ``seat`` whose evaluation is in ``parts``."""
    state = analysis.state
    cities, ships, bonuses, hand = parts
    cards = state.hands[seat]
    chips = state.chips
    neighbours = state.board.neighbours
    tiles = state.tiles[seat]
    playable = sum(
        1 for tile in tiles if chips[tile] < 0 and any(chips[n] >= 0 for n in neighbours[tile])
    )
    reach_1, reach_3 = _reach(state, seat, analysis)
    return [
        cities,
        ships,
        bonuses,
        hand,
        float(sum(cards)),
        float(cards[4]),
        float(len(tiles)),
        float(playable),
        float(state.ship_supply[seat]),
        float(state.city_supply[seat]),
        float(reach_1),
        float(reach_3),
        float(analysis.colours_of[seat]),
    ]


def _reach(state: GameState, seat: int, analysis: Analysis) -> tuple[int, int]:
    """Free spaces of an empire (:attr:`Analysis.targets`) within 1 and within 3 steps of
    the seat's ships."""
    ports = state.fleets[seat]
    if not ports:
        return 0, 0
    distances = target_distances(state.board)
    rows = [distances[port] for port in ports]
    near = far = 0
    for space, _colour, _gain in analysis.targets:
        steps = 99
        for row in rows:
            d = row[space]
            if 0 < d < steps:
                steps = d
        if steps <= 3:
            far += 1
            if steps <= 1:
                near += 1
    return near, far


def features(analysis: Analysis, seat: int, own: list[list[float]] | None = None) -> list[float]:
    """The features (:data:`NAMES`) of ``seat``; ``own``: every seat's :func:`own_features`,
    if computed already."""
    state = analysis.state
    players = state.players
    rows = own if own is not None else every_seat(analysis)
    totals = [row[0] + row[1] + row[2] + row[3] for row in rows]
    best = max((s for s in range(players) if s != seat), key=lambda s: totals[s])
    order = (seat - state.current) % players
    return [
        *rows[seat],
        *rows[best],
        float(state.phase == P_ACTIONS and order == 0),
        float(order == players - 1),
        float(players == 3),
    ]


def every_seat(analysis: Analysis) -> list[list[float]]:
    """Every seat's :func:`own_features`."""
    parts = all_parts(analysis)
    return [own_features(analysis, s, parts[s]) for s in range(analysis.state.players)]


def stage(analysis: Analysis) -> int:
    """Which model values the position: the card-action phases still to come, at most 6."""
    return min(analysis.phases_left, STAGES - 1)


class LearnedValue:
    """Each seat's expected final total, by the fitted weights of its stage."""

    def __init__(self, document: dict[str, Any]) -> None:
        if list(document["features"]) != list(NAMES):
            raise ValueError("the weights are for other features")
        self.document = document
        self.on_hand_set = document.get("base", "none") == "hand-set"
        """The weights say what to add to the hand-set evaluation, not the whole value."""
        self.models: list[tuple[float, list[float]]] = [
            (float(model["intercept"]), [float(w) for w in model["weights"]])
            for model in document["stages"]
        ]
        if len(self.models) != STAGES:
            raise ValueError(f"the weights need {STAGES} stages")
        if any(len(weights) != len(NAMES) for _, weights in self.models):
            raise ValueError("the weights need one number for each feature")

    @classmethod
    @cache
    def shipped(cls) -> LearnedValue:
        """The weights that come with the package (``data/value.json``)."""
        text = resources.files(__package__).joinpath("data/value.json").read_text("utf-8")
        return cls(json.loads(text))

    def values(self, analysis: Analysis) -> list[float]:
        """Every seat's expected final total in ``analysis``'s position (not over)."""
        players = analysis.state.players
        own = every_seat(analysis)
        intercept, weights = self.models[stage(analysis)]
        out = []
        for seat in range(players):
            row = features(analysis, seat, own)
            value = intercept + sum(map(operator.mul, weights, row))
            out.append(value + (row[0] + row[1] + row[2] + row[3] if self.on_hand_set else 0.0))
        return out


__all__ = ["NAMES", "STAGES", "LearnedValue", "every_seat", "features", "stage"]
