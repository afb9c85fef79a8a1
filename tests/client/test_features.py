"""The learned evaluation: its features, the shipped weights, and a search that uses them."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from tyros_client.bots import make_bot
from tyros_client.bots.evaluate import Analysis
from tyros_client.bots.features import (
    NAMES,
    STAGES,
    LearnedValue,
    all_parts,
    every_seat,
    features,
    stage,
)
from tyros_client.bots.ismcts import ISMCTSBot
from tyros_rules import Options, Phase, legal_actions, new_game, push, seats_to_act, view


def positions(seed: int, every: int = 9) -> list[Any]:
    """Every ``every``-th position of a seeded game of random bots, up to its end."""
    rng = random.Random(seed)
    state = new_game(Options(players=4 if seed % 2 else 3, seed=seed))
    out = []
    while state.phase != Phase.OVER:
        if state.version % every == 0:
            out.append(state.copy())
        seat = seats_to_act(state)[0]
        push(state, seat, rng.choice(legal_actions(state, seat)))
    return out


def hand_made(intercept: float, feature: str) -> dict[str, Any]:
    """Weights that value a seat at ``intercept`` plus one of its features."""
    weights = [1.0 if name == feature else 0.0 for name in NAMES]
    return {
        "features": list(NAMES),
        "stages": [{"intercept": intercept, "weights": weights}] * STAGES,
    }


def test_every_seat_is_described_by_every_named_feature_and_the_evaluations_parts() -> None:
    for state in positions(1)[:25] + positions(2)[:25]:
        analysis = Analysis(state)
        parts = all_parts(analysis)
        for seat in range(state.players):
            assert parts[seat] == pytest.approx(analysis.parts(seat))
            row = features(analysis, seat)
            assert len(row) == len(NAMES) and all(math.isfinite(x) for x in row)
            assert row[NAMES.index("cards")] == sum(state.hands[seat])
            assert row[NAMES.index("tiles")] == len(state.tiles[seat])
            assert row[NAMES.index("reach_1")] <= row[NAMES.index("reach_3")]
        assert 0 <= stage(analysis) < STAGES


def test_a_value_is_its_stages_intercept_plus_the_weighted_features() -> None:
    value = LearnedValue(hand_made(10.0, "cities"))
    for state in positions(3)[:20]:
        analysis = Analysis(state)
        own = every_seat(analysis)
        assert value.values(analysis) == pytest.approx([10.0 + row[0] for row in own])
    # weights fitted on the hand-set evaluation add to it (the parts: the first four)
    added = LearnedValue({**hand_made(10.0, "cities"), "base": "hand-set"})
    for state in positions(3)[:20]:
        analysis = Analysis(state)
        expected = [10.0 + row[0] + sum(row[:4]) for row in every_seat(analysis)]
        assert added.values(analysis) == pytest.approx(expected)
        assert [sum(row[:4]) for row in every_seat(analysis)] == pytest.approx(analysis.values())


def test_weights_for_other_features_or_stages_are_refused() -> None:
    document = hand_made(0.0, "cards")
    with pytest.raises(ValueError, match="other features"):
        LearnedValue({**document, "features": list(NAMES[:-1])})
    with pytest.raises(ValueError, match="stages"):
        LearnedValue({**document, "stages": document["stages"][:3]})


def test_the_shipped_weights_foretell_final_totals_in_their_range() -> None:
    shipped = LearnedValue.shipped()
    assert len(shipped.models) == STAGES
    assert shipped.document["command"].startswith("python bench/learn.py")
    for state in positions(5):
        values = shipped.values(Analysis(state))
        assert all(0.0 <= v <= 150.0 for v in values), values


def test_a_search_on_the_learned_value_plays_legally_and_reproducibly() -> None:
    state = positions(7)[12]
    seat = seats_to_act(state)[0]
    legal = legal_actions(state, seat)
    seen = json.loads(json.dumps(view(state, seat)))
    choices = [
        make_bot("ismcts", seat, random.Random(4), iterations=40, value="learned").choose(
            seen, legal
        )
        for _ in range(2)
    ]
    assert choices[0] == choices[1] and choices[0] in legal
    with pytest.raises(ValueError, match="value must be one of"):
        ISMCTSBot(seat, random.Random(0), value="oracle")
