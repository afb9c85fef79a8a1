"""``tyros-play``'s levels: each makes a bot that plays, at the budget the ladder measured."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tyros_client.bots import GreedyBot, ISMCTSBot, make_bot
from tyros_client.bots.levels import DEFAULT_LEVEL, EASY_SLIP, LEVELS, reproducible
from tyros_protocol.messages import BOT_LEVELS, DEFAULT_BOT_LEVEL
from tyros_rules import Options, legal_actions, new_game, push, seats_to_act, view


@pytest.mark.parametrize("name", ["easy", "normal", "hard", "expert"])
def test_a_level_makes_a_bot_that_plays_within_its_budget(name: str) -> None:
    level = LEVELS[name]
    state, rng = new_game(Options(players=4, seed=5)), random.Random(2)
    seat = seats_to_act(state)[0]
    while len(legal_actions(state, seat)) < 3:  # on to a choice worth a search
        push(state, seat, rng.choice(legal_actions(state, seat)))
        seat = seats_to_act(state)[0]
    bot = make_bot(level.strategy, seat, random.Random(1), **level.options)
    legal = legal_actions(state, seat)
    assert bot.choose(view(state, seat), legal) in legal
    if isinstance(bot, ISMCTSBot):
        assert 0 < bot.stats["iterations"] <= level.options["iterations"]


def test_the_levels_and_what_the_ladder_plays_of_them() -> None:
    """``easy`` is ``normal`` that slips; ``hard`` searches; the ladder plays the search at
    its iterations alone."""
    assert LEVELS["easy"].strategy == LEVELS["normal"].strategy == "greedy"
    assert LEVELS["easy"].options == {"slip": EASY_SLIP} and 0 < EASY_SLIP < 0.5
    assert LEVELS["normal"].options == {}
    assert LEVELS["hard"].strategy == "ismcts"
    assert LEVELS["hard"].options["move_time"] > 0
    assert reproducible("hard") == {
        "iterations": LEVELS["hard"].options["iterations"],
        "answer_iterations": LEVELS["hard"].options["answer_iterations"],
        "root_prior": LEVELS["hard"].options["root_prior"],
        "root_width": LEVELS["hard"].options["root_width"],
        "prior_every_phase": True,
    }
    assert reproducible("easy") == LEVELS["easy"].options


@pytest.mark.parametrize("name", ["easy", "normal", "hard", "expert"])
def test_a_server_finds_each_level_by_its_name(name: str) -> None:
    """``tyros-server --takeover-strategy hard`` (an entry point of the strategies' group)
    plays the level as ``tyros-play --level hard`` does."""
    from tyros_server.strategies import load_strategy

    made = load_strategy(name)(3, random.Random(0))
    level = LEVELS[name]
    assert type(made) is type(make_bot(level.strategy, 3, random.Random(0)))
    assert isinstance(made, GreedyBot | ISMCTSBot) and made.seat == 3
    for option, value in level.options.items():
        assert getattr(made.settings, option) == value, option


def test_the_protocols_bot_levels_are_these() -> None:
    """A hello's ``bot_level`` (the server's own bots) names exactly these levels."""
    assert list(BOT_LEVELS) == list(LEVELS)
    assert DEFAULT_BOT_LEVEL == DEFAULT_LEVEL


def test_each_levels_rating_is_the_readmes() -> None:
    """``--help`` gives each level's rating from :data:`LEVELS`; the README's ladder table
    gives the same figures (a refit changes both)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for name, level in LEVELS.items():
        (row,) = [line for line in readme.splitlines() if line.startswith(f"| `{name}` | ")]
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        rating, interval = cells[2], cells[3]
        assert level.rating == (rating if name == "easy" else f"{rating} {interval}"), name
