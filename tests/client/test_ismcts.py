"""The ``ismcts`` strategy: reproducible searches, legal choices, offline and online games."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tyros_client import arena
from tyros_client.bots import make_bot, strategies
from tyros_client.bots.evaluate import rewards
from tyros_client.bots.ismcts import DEFAULT_MOVE_TIME, ISMCTSBot
from tyros_client.bots.search import Search, first_options, tree_options
from tyros_protocol.cards import VIOLET
from tyros_rules import (
    Action,
    GameState,
    Kind,
    Options,
    Phase,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)

from tests.client.bot_games import START, play_checked, play_over_server, twin_positions
from tests.rules.builders import make_state, space


def search_choice(state: GameState, seat: int, iterations: int = 60, seed: int = 0) -> Action:
    bot = make_bot("ismcts", seat, random.Random(seed), iterations=iterations)
    legal = legal_actions(state, seat)
    action = bot.choose(json.loads(json.dumps(view(state, seat))), legal)
    push(state.copy(), seat, action)
    return action


def first_card_turn(seed: int = 12) -> tuple[dict[str, Any], int, list[Action]]:
    """The first card turn of a seeded 4-player game (everyone expanding with their first
    option): the view, the seat and its legal actions."""
    state = new_game(Options(players=4, seed=seed))
    while state.phase != Phase.ACTIONS:
        seat = seats_to_act(state)[0]
        push(state, seat, legal_actions(state, seat)[0])
    seat = state.current
    return view(state, seat), seat, legal_actions(state, seat)


def test_ismcts_is_registered_with_its_budgets() -> None:
    assert strategies()["ismcts"] is ISMCTSBot
    default = make_bot("ismcts", 0, random.Random(0))
    assert isinstance(default, ISMCTSBot)
    assert default.move_time == DEFAULT_MOVE_TIME and default.iterations is None
    counted = make_bot("ismcts", 1, random.Random(0), iterations=50)
    assert isinstance(counted, ISMCTSBot)
    assert counted.iterations == 50 and counted.move_time is None
    both = make_bot("ismcts", 1, random.Random(0), iterations=50, move_time=0.5)
    assert isinstance(both, ISMCTSBot)
    assert both.iterations == 50 and both.move_time == 0.5


def test_rewards_are_in_the_unit_interval_and_follow_the_lead() -> None:
    values = rewards([80.0, 20.0, 50.0, 49.0], 8.0)
    assert all(0.0 <= r <= 1.0 for r in values)
    assert values[0] > values[2] > values[3] > values[1]


def test_an_iteration_budget_makes_the_search_reproducible() -> None:
    seen, seat, legal = first_card_turn()
    first = Search(seen, seat, legal, random.Random(5))
    second = Search(seen, seat, legal, random.Random(5))
    assert first.run(80, None) == second.run(80, None)
    assert first.iterations == second.iterations == 80
    # Every iteration went through the root, and no option was tried more than it was available.
    children = first.root.children.values()
    assert sum(child.visits for child in children) == 80
    assert all(child.available >= child.visits >= 1 for child in children)
    assert set(first.root.children) <= set(first.root_options)


def test_a_root_prior_leans_the_search_toward_greedys_choice() -> None:
    """With ``root_prior``, the root's card actions start from greedy's preference (a
    softmax of its one-step values) and the search leaves it only where its rewards say so;
    without, the root is plain UCB1 (the pinned searches)."""
    seen, seat, legal = first_card_turn()
    assert Search(seen, seat, legal, random.Random(5)).priors == {}
    leaning = Search(seen, seat, legal, random.Random(5), root_prior=1.0)
    priors = leaning.priors
    assert set(priors) == set(leaning.root_options) and abs(sum(priors.values()) - 1) < 1e-9
    favourite = max(priors, key=priors.__getitem__)
    assert priors[favourite] > 1 / len(priors)  # greedy's values are not all alike here
    # So strong a prior that the rewards hardly count: the visits follow it (PUCT), where
    # plain UCB1 spreads them over the options.
    for weight, most in ((1000.0, priors[favourite]), (0.0, None)):
        search = Search(seen, seat, legal, random.Random(5), root_prior=weight)
        search.run(200, None)
        visits = {key: child.visits / 200 for key, child in search.root.children.items()}
        if most is None:
            assert max(visits.values()) < 0.25
        else:
            assert max(visits, key=visits.__getitem__) == favourite
            assert abs(visits[favourite] - most) < 0.05
    bot = make_bot("ismcts", seat, random.Random(0), iterations=10, root_prior=1.0)
    assert isinstance(bot, ISMCTSBot) and bot.settings.root_prior == 1.0


def test_tree_options_below_the_root_are_grouped_legal_and_ordered() -> None:
    state = make_state(
        4,
        chips=START,
        ships={"TY": {0: 1, 1: 2}, "23": {0: 1}},
        hands={0: "g g g g g o v w w"},
        discard="y",
    )
    options = tree_options(state, 0)
    legal = legal_actions(state, 0)
    assert all(action in legal for _, action in options)
    assert len(options) < len(legal) / 4  # payments and bank trades grouped
    assert options[0][1][0] == Kind.CITY  # the cheap prior puts the city first
    assert not any(action[0] == Kind.PROPOSE for _, action in options)


def test_the_first_options_are_the_first_of_every_option_listed() -> None:
    """``first_options`` lists only what comes first where it can: it must agree with
    :func:`tree_options` everywhere, in every phase of seeded random games."""
    rng = random.Random(5)
    checked = 0
    for seed in range(6):
        state = new_game(Options(players=4, seed=seed))
        while state.phase != Phase.OVER:
            seat = seats_to_act(state)[0]
            options = tree_options(state, seat)
            for count in (1, 2, 3, 5):
                assert first_options(state, seat, count) == (
                    options[:count],
                    len(options) > count,
                )
                checked += 1
            push(state, seat, rng.choice(legal_actions(state, seat)))
    assert checked > 4000


def test_it_builds_the_city_that_wins_the_last_round() -> None:
    # The last round (a hand is empty): the city in 23 is worth its points now or never.
    state = make_state(
        4,
        chips=START,
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g g g", 1: "o o", 2: "y", 3: "v"},
        tiles={0: [], 1: ["1"], 2: ["2"], 3: ["3"]},
    )
    assert search_choice(state, 0)[:3] == (Kind.CITY, space("23"), space("23"))


def test_it_takes_the_free_space_that_decides_the_last_round() -> None:
    # Last round. Every other space is contested, so nobody scores; seat 0 alone can reach
    # violet 26 (Tyros-31-27-26 for three violets). Holding it wins; passing may end the game.
    contested = {2: 1, 3: 1}
    state = make_state(
        4,
        chips=START,
        ships={"TY": {0: 2, 1: 2}, "7": contested, "13": contested, "23": contested},
        hands={0: "v v v", 1: "o o", 2: "y", 3: "g"},
        tiles={0: [], 1: ["1"], 2: ["2"], 3: ["3"]},
    )
    assert search_choice(state, 0, iterations=150)[:3] == (Kind.MOVE, space("TY"), space("26"))


def test_it_gives_the_city_owner_a_card_it_can_spare() -> None:
    # Four greens toward a city in 23 and a violet: the violet goes to seat 1's city.
    state = make_state(
        4,
        phase=Phase.GIVE_CARD,
        chips=START,
        cities={"26": 1},
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}, "26": {0: 1}},
        hands={0: "g g g g v"},
    )
    state.owed_to = 1
    assert search_choice(state, 0, iterations=100) == (Kind.GIVE_CARD, VIOLET)


def test_it_answers_an_offer_by_searching_it() -> None:
    # A green for its useless violet completes its city in 23: it accepts.
    state = make_state(
        4,
        chips=START,
        current=1,
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g g v", 1: "g o o"},
    )
    push(state, 1, (Kind.PROPOSE, 0b0001, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0))
    assert search_choice(state, 0, iterations=100) == (Kind.ANSWER, 1)


def test_an_answer_to_an_offer_has_a_budget_of_its_own() -> None:
    """``answer_iterations`` (the levels': a quick answer gets a seat into the trade) is
    the budget of answers alone; other decisions search ``iterations``."""
    state = make_state(
        4,
        chips=START,
        current=1,
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g g v", 1: "g o o"},
    )
    offering = (Kind.PROPOSE, 0b0001, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0)
    bot = make_bot("ismcts", 1, random.Random(0), iterations=90, answer_iterations=30)
    assert isinstance(bot, ISMCTSBot)
    bot.choose(view(state, 1), legal_actions(state, 1))
    assert bot.stats["iterations"] == 90
    push(state, 1, offering)
    for iterations, answer_iterations in ((90, 30), (90, None)):
        bot = make_bot(
            "ismcts",
            0,
            random.Random(0),
            iterations=iterations,
            answer_iterations=answer_iterations,
        )
        assert isinstance(bot, ISMCTSBot)
        assert bot.choose(view(state, 0), legal_actions(state, 0)) == (Kind.ANSWER, 1)
        assert bot.stats["iterations"] == (answer_iterations or iterations)
    with pytest.raises(ValueError, match="answer_iterations must be at least 1"):
        make_bot("ismcts", 0, random.Random(0), iterations=90, answer_iterations=0)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"iterations": 0}, "iterations must be at least 1"),
        ({"move_time": 0.0}, "move_time must be more than 0"),
        ({"move_time": -1.0}, "move_time must be more than 0"),
        ({"move_time": float("nan")}, "move_time must be more than 0"),
    ],
)
def test_a_budget_of_nothing_is_refused(options: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        make_bot("ismcts", 0, random.Random(0), **options)


def leading_search(state: GameState, seat: int, **options: Any) -> Search:
    """A search at ``state`` for ``seat``, as the levels' bots start it: led by greedy."""
    seen, legal = json.loads(json.dumps(view(state, seat))), legal_actions(state, seat)
    return Search(seen, seat, legal, random.Random(5), root_prior=1.0, **options)


def test_the_prior_can_lead_every_decision_greedy_weighs() -> None:
    """With ``prior_every_phase`` (the levels') greedy's values lead the answers to an offer,
    the cards to keep and the expansions too; without, only card actions (the root as it
    was before)."""
    offered = make_state(
        4,
        chips=START,
        current=1,
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g g v", 1: "g o o"},
    )
    push(offered, 1, (Kind.PROPOSE, 0b0001, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0))  # green for violet
    keeping = make_state(
        4,
        phase=Phase.KEEP,
        chips=START,
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g o y v w"},
    )
    keeping.keep_pending = [True, False, False, False]
    expanding = new_game(Options(players=4, seed=3))
    while True:  # (everyone playing its first option) to an expansion of several tiles
        first = seats_to_act(expanding)[0]
        legal = legal_actions(expanding, first)
        if expanding.phase == Phase.EXPAND and len(legal) > 1 and legal[0][0] == Kind.EXPAND:
            break
        push(expanding, first, legal[0])
    for state, seat in ((offered, 0), (keeping, 0), (expanding, first)):
        assert leading_search(state, seat).priors == {}
        search = leading_search(state, seat, prior_every_phase=True)
        priors = search.priors
        assert set(priors) == set(search.root_options) and len(priors) > 1
        assert abs(sum(priors.values()) - 1) < 1e-9
    # The offer helps seat 0 (a green for its useless violet completes its city): accepting
    # leads; the cards to keep: greedy's own choice leads.
    answered = leading_search(offered, 0, prior_every_phase=True).priors
    assert max(answered, key=answered.__getitem__) == (Kind.ANSWER, 1)
    kept = leading_search(keeping, 0, prior_every_phase=True).priors
    greedy_keeps = make_bot("greedy", 0, random.Random(0)).choose(
        view(keeping, 0), legal_actions(keeping, 0)
    )
    assert max(kept, key=kept.__getitem__) == greedy_keeps


def test_a_led_answer_searches_greedys_counter_offer_first() -> None:
    """Seat 0 lacks the violet asked for, and greedy counters with its orange: the led search
    lists that counter among accepting and declining, and leads with it."""
    ships = {"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}}
    state = make_state(4, chips=START, ships=ships, current=1, hands={0: "g g g g o", 1: "g y"})
    push(state, 1, (Kind.PROPOSE, 0b0001, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0))
    countered = make_bot("greedy", 0, random.Random(0)).choose(
        view(state, 0), legal_actions(state, 0)
    )
    assert countered[0] == Kind.COUNTER
    search = leading_search(state, 0, prior_every_phase=True)
    assert countered in search.root_options
    assert max(search.priors, key=search.priors.__getitem__) == countered


@pytest.mark.parametrize(
    ("strategies", "setup", "seed"),
    [
        (("ismcts", "greedy", "random", "random"), "first", 1),
        (("ismcts", "ismcts", "random"), "variable", 2),
    ],
)
def test_search_self_play_is_legal_in_every_situation(
    strategies: tuple[str, ...], setup: str, seed: int
) -> None:
    players = len(strategies)
    wanted = [(kind,) for kind in (Kind.EXPAND, Kind.MOVE, Kind.CITY, Kind.KEEP, Kind.PASS)]
    kinds: Counter[tuple[int, ...]] = Counter()
    # Seeded games, until the searchers have met every kind of decision (a few suffice:
    # a searcher with 3 cards or fewer at a round's end has nothing to keep).
    for game in range(seed, seed + 4):
        state = new_game(Options(players=players, setup=setup, seed=game))
        bots = [
            make_bot(name, s, random.Random(game * 10 + s), iterations=12)
            for s, name in enumerate(strategies)
        ]
        kinds += play_checked(state, bots, counted=lambda seat: strategies[seat] == "ismcts")
        searchers = [bot for bot in bots if isinstance(bot, ISMCTSBot)]
        assert all(bot.stats["iterations"] == 12 * bot.stats["searches"] for bot in searchers)
        if all(kinds[k] for k in wanted) and kinds[(Kind.ANSWER, 0)] + kinds[(Kind.ANSWER, 1)]:
            break
    for kind in wanted:
        assert kinds[kind] > 0, kind
    assert kinds[(Kind.ANSWER, 0)] + kinds[(Kind.ANSWER, 1)] > 0


def test_a_time_budget_alone_stops_the_search() -> None:
    state = new_game(Options(players=3, seed=2))
    seat = state.current
    legal = legal_actions(state, seat)
    bot = make_bot("ismcts", seat, random.Random(0), move_time=0.05)
    assert isinstance(bot, ISMCTSBot)
    assert bot.choose(view(state, seat), legal) in legal
    assert bot.stats["searches"] == 1 and bot.stats["iterations"] >= 1


async def test_ismcts_plays_a_seeded_game_over_a_real_server(tmp_path: Path) -> None:
    scores, runs = await play_over_server(
        tmp_path, ["ismcts", "random", "random"], seed=6, options={"iterations": 6}
    )
    assert all(score == scores[0] for score in scores)
    assert runs[0].actions_sent > 20


def test_it_decides_from_its_view_alone() -> None:
    """Two games that differ only in what seat 0 cannot see get the same decision from it."""
    first, second = twin_positions()
    assert view(first, 0) == view(second, 0)
    assert search_choice(first, 0, 40, seed=3) == search_choice(second, 0, 40, seed=3)


def test_an_omniscient_search_sees_only_what_the_arena_reveals_and_only_if_asked() -> None:
    """The ladder's upper bound: ``omniscient`` searches the true game that the arena shows
    it before each decision; without the option a revealed game is ignored."""
    seen: list[int] = []

    class Seer(ISMCTSBot):
        def reveal(self, state: GameState) -> None:
            super().reveal(state)
            seen.append(state.version)

    setattr(arena, "make_bot", lambda name, seat, rng, **o: Seer(seat, rng, **o))  # noqa: B010
    try:
        result = arena.play_game(
            ["ismcts"] * 3,
            seed=2,
            seat_options=[{"iterations": 5, "omniscient": True}, *[{"iterations": 5}] * 2],
        )
    finally:
        setattr(arena, "make_bot", make_bot)  # noqa: B010
    assert result.state.phase == Phase.OVER
    assert seen and len(seen) < result.actions  # seat 0's decisions only
    first, _ = twin_positions()
    blind = ISMCTSBot(0, random.Random(1), iterations=40)
    blind.reveal(first)
    assert blind.truth is None  # not omniscient: it searches its view alone
    seer = ISMCTSBot(0, random.Random(1), iterations=40, omniscient=True)
    seer.reveal(first)
    assert seer.truth is first
    search = Search(view(first, 0), 0, legal_actions(first, 0), random.Random(3), truth=first)
    sampled = search.determinizer.sample(random.Random(4))
    assert sampled.hands == first.hands and sampled is not first
