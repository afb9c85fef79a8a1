"""The ``greedy`` strategy and the evaluation it uses, offline and over a real server."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

from tyros_client import arena
from tyros_client.bots import GreedyBot, make_bot, strategies
from tyros_client.bots.base import Bot
from tyros_client.bots.determinize import Holdings
from tyros_client.bots.evaluate import Analysis, evaluate
from tyros_client.bots.greedy import PLAUSIBLE, SLIPS, CardChoices, Greedy
from tyros_client.bots.grouping import card_options, group_actions
from tyros_client.bots.manners import PERSON_GAIN, PERSON_HOLDS, Manners
from tyros_client.bots.outlook import future
from tyros_protocol.cards import GREEN, VIOLET, WILD
from tyros_rules import (
    CITY_PAY,
    COUNTER_GET,
    COUNTER_GIVE,
    DRAW_PAY,
    KEPT,
    PICK_PAY,
    PROPOSE_GET,
    PROPOSE_GIVE,
    SHIP_PAY,
    Action,
    GameState,
    Kind,
    Options,
    Phase,
    check_action,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)

from tests.client.bot_games import START, play_checked, play_over_server, twin_positions
from tests.rules.builders import make_state, space


def greedy_choice(state: GameState, seat: int, seed: int = 0) -> Action:
    """What a fresh greedy bot for ``seat`` does, shown only the seat's view."""
    bot = make_bot("greedy", seat, random.Random(seed))
    legal = legal_actions(state, seat)
    action = bot.choose(view(state, seat), legal)
    push(state.copy(), seat, action)  # legal (proposals are checked by push too)
    return action


# The evaluation ---------------------------------------------------------------------


def test_evaluation_is_the_score_sheet_when_the_game_is_over() -> None:
    for seed in range(2):
        state = new_game(Options(players=3 + seed % 2, seed=seed))
        bots = [
            make_bot("greedy" if s == seed else "random", s, random.Random(seed))
            for s in range(state.players)
        ]
        while state.phase != Phase.OVER:
            seat = seats_to_act(state)[0]
            push(state, seat, bots[seat].choose(view(state, seat), legal_actions(state, seat)))
        assert state.score is not None
        totals = [float(p["total"]) for p in state.score["players"]]
        assert [round(v, 9) for v in evaluate(state)] == totals


def test_the_forecast_counts_tiles_and_rounds() -> None:
    # 4 players, first game: 28 tiles; 8 played in round 1, then 4 a round: 6 rounds in all.
    state = new_game(Options(players=4, seed=1))
    assert future(state) == (28, 6)
    # 3 players: 28 tiles, 6 a round: the fifth round empties a hand (12 dealt + 16 drawn).
    assert future(new_game(Options(players=3, seed=1))) == (28, 5)
    # A hand already empty in the card actions: this is the last card-action phase.
    last = make_state(4, chips=START, tiles={0: [], 1: ["1"], 2: ["2"], 3: ["3"]})
    assert future(last) == (0, 1)


def test_a_city_is_worth_more_in_a_larger_empire() -> None:
    small = make_state(4, chips=START, cities={"23": 0})
    large = make_state(4, chips={**START, "22": "g", "24": "g"}, cities={"23": 0})
    assert Analysis(large).board_points(0) > Analysis(small).board_points(0)


def test_cards_are_worth_what_they_can_buy() -> None:
    # A ship alone in green 23: five greens buy a city there, five violets buy nothing near.
    state = make_state(
        4, chips=START, ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}}, hands={0: "g g g g g"}
    )
    plan = Analysis(state).plan(0)
    assert plan.hand_value((0, 0, 5, 0, 0)) > plan.hand_value((0, 0, 0, 5, 0)) + 3
    # A wild is at least as good as any colour, and a green here is worth more than a violet.
    values = plan.card_values((0, 0, 4, 1, 0))
    assert values[WILD] >= max(values[:4]) - 1e-9
    assert values[GREEN] > values[VIOLET]


def test_grouped_card_actions_are_legal_and_cover_every_target() -> None:
    state = make_state(
        4,
        chips=START,
        ships={"TY": {0: 1, 1: 2}, "23": {0: 1}},
        hands={0: "g g g g o v w w"},
        discard="y y",
    )
    legal = legal_actions(state, 0)
    values = [1.0, 1.0, 2.0, 0.5, 5.0]  # orange, yellow, green, violet, wild
    groups = card_options(state, 0, values)
    assert set(groups.values()) <= set(legal)
    targets = {a[:3] for a in legal if a[0] in (Kind.MOVE, Kind.CITY)}
    assert {a[:3] for a in groups.values() if a[0] in (Kind.MOVE, Kind.CITY)} == targets
    # A green city pays greens before wilds; the other payments give the cheapest cards.
    assert groups[(Kind.CITY, space("23"), space("23"))][CITY_PAY] == (0, 0, 4, 0, 1)
    assert groups[(Kind.BANK_DRAW, 1)][DRAW_PAY] == (0, 0, 0, 1, 0)
    assert groups[(Kind.BANK_DRAW, 2)][DRAW_PAY] == (1, 0, 0, 1, 0)
    assert groups[(Kind.BANK_DRAW, 3)][DRAW_PAY] == (1, 0, 1, 1, 0)
    assert groups[(Kind.BANK_PICK, 1)][PICK_PAY] == (1, 0, 1, 1, 0)
    # A ship in Tyros (3 ships there: 4 cards of any colour).
    assert groups[(Kind.SHIP, space("TY"))][SHIP_PAY] == (1, 0, 2, 1, 0)
    # Building them directly gives the grouping of the whole legal list.
    whole = group_actions([a for a in legal if a[0] != Kind.PROPOSE], values)
    assert whole == groups
    assert list(whole) == list(groups)  # in the same order too


def test_grouped_card_actions_pay_with_wilds_when_a_colour_is_dearer() -> None:
    """With no colour dearer than a wild the grouping takes the fewest wilds directly;
    otherwise it weighs every payment, and a green move or city is paid with wilds."""
    state = make_state(
        4,
        chips=START,
        ships={"TY": {0: 1, 1: 2}, "23": {0: 1}},
        hands={0: "g g g g o v w w"},
        discard="y y",
    )
    legal = [a for a in legal_actions(state, 0) if a[0] != Kind.PROPOSE]
    values = [1.0, 1.0, 6.0, 0.5, 5.0]  # green dearer than a wild
    groups = card_options(state, 0, values)
    whole = group_actions(legal, values)
    assert groups == whole and list(groups) == list(whole)
    assert groups[(Kind.CITY, space("23"), space("23"))][CITY_PAY] == (0, 0, 3, 0, 2)


# Decisions --------------------------------------------------------------------------


def test_it_builds_a_city_it_can_afford() -> None:
    state = make_state(
        4,
        chips=START,
        ships={"TY": {0: 1, 1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g g g y"},
    )
    action = greedy_choice(state, 0)
    assert action[:3] == (Kind.CITY, space("23"), space("23"))


def test_it_sends_a_ship_to_a_free_space_rather_than_pass() -> None:
    # Three violets take a ship from Tyros to violet 26 (Tyros-31-27-26).
    state = make_state(4, chips=START, hands={0: "v v v"})
    assert greedy_choice(state, 0)[:3] == (Kind.MOVE, space("TY"), space("26"))


def test_it_offers_the_card_it_needs_least_for_the_one_it_lacks() -> None:
    # Four greens and a ship alone in green 23: one more green (or a wild) builds a city.
    state = make_state(
        4,
        chips=START,
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g g v", 1: "o y", 2: "y v"},
    )
    action = greedy_choice(state, 0)
    assert action[0] == Kind.PROPOSE
    assert action[PROPOSE_GIVE] == (0, 0, 0, 1, 0)  # it gives the violet
    assert action[PROPOSE_GET][2] + action[PROPOSE_GET][4] >= 1  # for a green or a wild
    assert action[1] == 0b0110  # asked of the seats holding cards, not seat 3


def test_it_asks_only_the_seats_that_could_hold_what_it_asks_for() -> None:
    ships = {"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}}
    state = make_state(4, chips=START, ships=ships, hands={0: "g g g g v", 1: "o y", 3: "o"})
    bot = make_bot("greedy", 0, random.Random(0))
    assert isinstance(bot, GreedyBot)
    # Seat 3's one card was seen: it took an orange from the discards (bank pick).
    bot.observe(
        {
            "type": "action",
            "seat": 3,
            "action": {"kind": "bank_pick", "take": "orange", "pay": ["green", "green"]},
        }
    )
    action = bot.choose(view(state, 0), legal_actions(state, 0))
    assert action[0] == Kind.PROPOSE
    asked = [seat for seat in range(4) if action[1] >> seat & 1]
    assert asked == [1]  # seat 2 holds nothing; seat 3 holds only an orange
    assert sum(action[PROPOSE_GET]) <= 2


def test_negotiation_off_offers_one_card_for_one_and_never_counters() -> None:
    ships = {"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}}
    state = make_state(4, chips=START, ships=ships, hands={0: "g g g g v", 1: "o y", 2: "y v"})
    action = make_bot("greedy-plain", 0, random.Random(0)).choose(
        view(state, 0), legal_actions(state, 0)
    )
    assert action[0] == Kind.PROPOSE
    assert sum(action[PROPOSE_GIVE]) == sum(action[PROPOSE_GET]) == 1
    countered = make_state(4, chips=START, ships=ships, current=1, hands={0: "g g g g o", 1: "g y"})
    push(countered, 1, (Kind.PROPOSE, 0b0001, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0))  # green for violet
    reply = make_bot("greedy-plain", 0, random.Random(0)).choose(
        view(countered, 0), legal_actions(countered, 0)
    )
    assert reply == (Kind.ANSWER, 0)  # it lacks the violet: the plain bot can only decline


def test_it_accepts_an_offer_that_helps_it_and_declines_one_that_hurts() -> None:
    ships = {"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}}
    helpful = make_state(4, chips=START, ships=ships, current=1, hands={0: "g g g g v", 1: "g o o"})
    push(helpful, 1, (Kind.PROPOSE, 0b0001, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0))  # green for violet
    assert greedy_choice(helpful, 0) == (Kind.ANSWER, 1)
    harmful = make_state(4, chips=START, ships=ships, current=1, hands={0: "g g g g v", 1: "v o o"})
    push(harmful, 1, (Kind.PROPOSE, 0b0001, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0))  # violet for green
    reply = greedy_choice(harmful, 0)
    # It keeps its greens: it declines, or counters with terms that do not cost it one
    # (here the other way round: its violet for a green).
    assert reply != (Kind.ANSWER, 1)
    if reply[0] == Kind.COUNTER:
        assert reply[COUNTER_GET][2] == 0 and reply[COUNTER_GIVE] == (0, 0, 1, 0, 0)


def test_it_counters_an_offer_it_cannot_accept_with_terms_that_help_it() -> None:
    # It lacks the violet asked for, but a green (or a wild) still builds its city: it
    # offers its orange instead.
    ships = {"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}}
    state = make_state(4, chips=START, ships=ships, current=1, hands={0: "g g g g o", 1: "g y"})
    push(state, 1, (Kind.PROPOSE, 0b0001, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0))  # green for violet
    reply = greedy_choice(state, 0)
    assert reply[0] == Kind.COUNTER
    assert reply[COUNTER_GET] == (1, 0, 0, 0, 0)  # it gives its orange
    assert reply[COUNTER_GIVE] in ((0, 0, 1, 0, 0), (0, 0, 0, 0, 1))  # for a green or a wild


def test_a_persons_offer_is_countered_only_with_cards_they_likely_hold() -> None:
    """Seat 1 offers an orange for a green, which seat 0 will not give: to a program it
    counters asking for a wild instead, which seat 1 was never seen to hold; a person it
    spares that counter (they likely cannot pay it) and declines."""
    ships = {"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}}
    for people in (frozenset(), frozenset({1})):
        state = make_state(
            4, chips=START, ships=ships, current=1, hands={0: "g g g y y", 1: "o o g v"}
        )
        push(state, 1, (Kind.PROPOSE, 0b0001, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0))
        bot = make_bot("greedy", 0, random.Random(0))
        bot.manners.people = people
        reply = bot.choose(view(state, 0), legal_actions(state, 0))
        if people:
            assert reply == (Kind.ANSWER, 0)
        else:
            assert reply[0] == Kind.COUNTER and reply[COUNTER_GIVE] == (0, 0, 0, 0, 1)


def test_the_proposer_completes_a_trade_that_helps_it() -> None:
    state = make_state(
        4,
        chips=START,
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g g v", 2: "g y"},
    )
    push(state, 0, (Kind.PROPOSE, 0b1110, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0))
    push(state, 1, (Kind.ANSWER, 0))
    push(state, 2, (Kind.ANSWER, 1))
    assert greedy_choice(state, 0) == (Kind.COMPLETE, 2)


def test_it_gives_the_city_owner_the_card_it_needs_least() -> None:
    state = make_state(
        4,
        phase=Phase.GIVE_CARD,
        chips=START,
        cities={"26": 1},
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}, "26": {0: 1}},
        hands={0: "g g g g v"},
    )
    state.owed_to = 1
    assert greedy_choice(state, 0) == (Kind.GIVE_CARD, VIOLET)


def test_it_keeps_the_cards_of_its_plans() -> None:
    state = make_state(
        4,
        phase=Phase.KEEP,
        chips=START,
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g o y v w"},
    )
    state.keep_pending = [True, False, False, False]
    action = greedy_choice(state, 0)
    assert action[0] == Kind.KEEP
    kept = action[KEPT]
    assert kept[GREEN] + kept[WILD] == 3  # greens (or the wild) for the city in 23


def test_it_grows_the_empire_of_its_city() -> None:
    # Tile 22 can only be green (next to 23, where seat 0 has a city); tile 8 only orange.
    state = make_state(
        4,
        phase=Phase.EXPAND,
        chips=START,
        cities={"23": 0},
        tiles={0: ["22", "8"], 1: ["1"], 2: ["2"], 3: ["3"]},
    )
    state.expand_queue = [1, 2, 3]
    assert greedy_choice(state, 0) == (Kind.EXPAND, space("22"), GREEN)


def test_it_puts_back_the_tile_farthest_from_the_empires() -> None:
    state = make_state(
        4, phase=Phase.EXPAND, chips=START, tiles={0: ["1", "5"], 1: ["2"], 2: ["3"], 3: ["4"]}
    )
    state.revealed[0] = state.tiles[0]
    legal = legal_actions(state, 0)
    assert {a[0] for a in legal} == {Kind.RETURN_TILE}
    # Neither can be played; 5 is three steps from the nearest empire (7 or 13), 1 only two.
    assert greedy_choice(state, 0) == (Kind.RETURN_TILE, space("5"))


# Whole games ------------------------------------------------------------------------


def test_greedy_self_play_is_legal_in_every_situation() -> None:
    """Seeded games, each checked action by action; together they take every kind of
    decision: expansion, cards, trades (both answers and counter-offers), keeping, the
    city owner's card (the union of several games, so that a change in the bot's play does
    not hide a kind behind one unlucky seed)."""
    kinds: Counter[tuple[int, ...]] = Counter()
    wanted = (
        Kind.EXPAND,
        Kind.MOVE,
        Kind.CITY,
        Kind.SHIP,
        Kind.PROPOSE,
        Kind.COMPLETE,
        Kind.WITHDRAW,
        Kind.KEEP,
        Kind.PASS,
        Kind.GIVE_CARD,
        Kind.COUNTER,
    )
    games = [(players, setup, seed) for seed in range(1, 9) for players, setup in GREEDY_GAMES]
    for played, (players, setup, seed) in enumerate(games, 1):
        state = new_game(Options(players=players, setup=setup, seed=seed))
        bots = [make_bot("greedy", s, random.Random(seed * 10 + s)) for s in range(players)]
        kinds.update(play_checked(state, bots))
        if all(kinds[(kind,)] for kind in wanted) and kinds[(Kind.ANSWER, 1)] and played >= 4:
            break
    missing = [kind.name for kind in wanted if not kinds[(kind,)]]
    assert not missing, missing
    assert kinds[(Kind.ANSWER, 1)] > 0 and kinds[(Kind.ANSWER, 0)] > 0


GREEDY_GAMES = ((4, "first"), (3, "variable"))


def test_greedy_beats_random_in_seeded_games() -> None:
    result = arena.run_arena(["greedy", "random", "random", "random"], 2, seed=3)
    assert result.wins["greedy"] == 2
    assert result.mean_score("greedy") > 2 * result.mean_score("random")


def test_greedy_is_registered() -> None:
    assert strategies()["greedy"] is GreedyBot
    assert GreedyBot.wants_view and GreedyBot.wants_events


# Over a real server -----------------------------------------------------------------


async def test_greedy_plays_a_seeded_game_over_a_real_server(tmp_path: Path) -> None:
    scores, runs = await play_over_server(tmp_path, ["greedy", "greedy", "random"], seed=5)
    assert all(score == scores[0] for score in scores)
    assert len(scores[0]["players"]) == 3 and scores[0]["winners"]
    assert sum(run.actions_sent for run in runs) > 100


def test_it_decides_from_its_view_alone() -> None:
    """Two games that differ only in what seat 0 cannot see get the same decisions from it."""
    first, second = twin_positions()
    assert view(first, 0) == view(second, 0)
    assert first.draw_pile != second.draw_pile
    for seed in range(3):
        assert greedy_choice(first, 0, seed) == greedy_choice(second, 0, seed)


def test_it_asks_only_the_seats_that_could_accept() -> None:
    # Seat 2 holds no card (its count is public): the offer goes to seats 1 and 3 only.
    state = make_state(
        4,
        chips=START,
        ships={"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}},
        hands={0: "g g g g v", 1: "g o o y y v v w g o", 2: "", 3: "y w o o y v g g v y"},
    )
    action = greedy_choice(state, 0)
    assert action[0] == Kind.PROPOSE
    assert action[1] == 0b1010
    check_action(state, 0, action)  # still a legal offer


def test_it_asks_only_the_seats_likely_to_hold_what_it_asks_for() -> None:
    """A seat of two cards nobody has seen most likely lacks a wild (there are few): asking
    it only holds it up. A seat seen to take a wild is asked."""
    state = make_state(4, hands={0: "o o y", 1: "g v", 2: "y g", 3: "o o y g v w y g"})
    nothing = (0, 0, 0, 0, 0)
    unseen = Holdings.of_state(state, 0)
    wild, orange = (0, 0, 0, 0, 1), (1, 0, 0, 0, 0)
    assert unseen.chance_to_give(1, wild) < PLAUSIBLE < unseen.chance_to_give(3, wild)
    asked, worth = Greedy(state, 0, random.Random(1), holdings=unseen).weigh_offer(
        0b1110, 1.0, orange, wild
    )
    assert asked == 0b1000 and worth > 0.0
    seen = replace(unseen, known=(nothing, wild, nothing, nothing))
    asked, _ = Greedy(state, 0, random.Random(1), holdings=seen).weigh_offer(
        0b1110, 1.0, orange, wild
    )
    assert asked == 0b1010


def test_its_offers_never_ask_a_seat_for_more_cards_than_it_holds() -> None:
    asked = 0
    for seed in (1, 2):
        state = new_game(Options(players=4, seed=seed))
        bots = [make_bot("greedy", s, random.Random(seed * 10 + s)) for s in range(4)]
        while state.phase != Phase.OVER:
            seat = seats_to_act(state)[0]
            action = bots[seat].choose(view(state, seat), legal_actions(state, seat))
            if action[0] == Kind.PROPOSE:
                wanted = sum(action[PROPOSE_GET])
                for other in range(4):
                    if action[1] >> other & 1:
                        assert sum(state.hands[other]) >= wanted, (seed, state.version)
                        asked += 1
            push(state, seat, action)
    assert asked > 20


def test_a_seat_that_declined_an_offer_this_round_is_not_made_it_again() -> None:
    """Made again an offer no better for it than one it turned down, it would only decline
    again and hold the table up (a new player was asked four times for green x2 it did not
    hold); a better offer may still be made."""
    state = make_state(4, hands={0: "o o y", 1: "g g v", 2: "g g y", 3: "g g"})
    holdings = Holdings.of_state(state, 0)
    two_green, one_orange = (0, 0, 2, 0, 0), (1, 0, 0, 0, 0)
    anyone = 0.0  # plausible: every seat that could hold them is asked
    asked, _ = Greedy(state, 0, random.Random(1), holdings=holdings, plausible=anyone).weigh_offer(
        0b1110, 1.0, one_orange, two_green
    )
    assert asked == 0b1110
    turned = replace(holdings, declined=((), ((one_orange, two_green),), (), ()))
    greedy = Greedy(state, 0, random.Random(1), holdings=turned, plausible=anyone)
    asked, worth = greedy.weigh_offer(0b1110, 1.0, one_orange, two_green)
    assert asked == 0b1100 and worth > 0.0  # seat 1 left out, the others still asked
    assert greedy.weigh_offer(0b1110, 1.0, one_orange, (0, 0, 1, 0, 0))[0] == 0b1110  # less
    assert greedy.weigh_offer(0b1110, 1.0, (2, 0, 0, 0, 0), two_green)[0] == 0b1110  # better


def test_a_person_is_asked_only_what_the_bot_believes_they_gain_by() -> None:
    """Seats 1 and 2 are people, seat 3 a program: an offer the bot believes hurts each of
    them (two greens for an orange) is put to the program alone."""
    state = make_state(4, hands={0: "o o y", 1: "g g v", 2: "g g y", 3: "g g"})
    holdings = Holdings.of_state(state, 0)
    two_green, one_orange = (0, 0, 2, 0, 0), (1, 0, 0, 0, 0)
    manners = Manners(people=frozenset({1, 2}))
    greedy = Greedy(state, 0, random.Random(1), holdings=holdings, plausible=0.0, manners=manners)
    assert all(greedy.partner_gain(seat, one_orange, two_green) <= PERSON_GAIN for seat in (1, 2))
    asked, worth = greedy.weigh_offer(0b1110, 1.0, one_orange, two_green)
    assert asked == 0b1000 and worth > 0.0


def offer_to_people(others: dict[int, str]) -> tuple[GameState, Action, Bot]:
    """Seat 0 holds four greens and a violet; ``others`` are seats 1 and 2's hands. The
    offer a greedy bot makes seats 1 and 2 as programs (both asked), and a bot for whom
    seats 1 to 3 are people."""
    ships = {"TY": {1: 2, 2: 2, 3: 2}, "23": {0: 1}}
    state = make_state(4, chips=START, ships=ships, hands={0: "g g g g v", **others})
    plain = make_bot("greedy", 0, random.Random(0))
    offer = plain.choose(view(state, 0), legal_actions(state, 0))
    assert offer[0] == Kind.PROPOSE and offer[1] == 0b0110 and plain.manners.offered == []
    bot = make_bot("greedy", 0, random.Random(0))
    bot.manners.people = frozenset({1, 2, 3})
    return state, offer, bot


def test_a_person_is_made_one_offer_a_round_and_it_is_remembered() -> None:
    """A violet for a green helps seats 1 and 2 (people) too, and their six cards likely
    hold what it asks: they are asked, once; the next decision of the round asks them
    nothing, the next round may."""
    state, offer, bot = offer_to_people({1: "o y y y y y", 2: "y y y y y v"})
    assert bot.choose(view(state, 0), legal_actions(state, 0)) == offer  # both gain by it
    assert [(seat, give, get) for seat, give, get in bot.manners.offered] == [
        (1, offer[PROPOSE_GIVE], offer[PROPOSE_GET]),
        (2, offer[PROPOSE_GIVE], offer[PROPOSE_GET]),
    ]
    assert bot.choose(view(state, 0), legal_actions(state, 0))[0] != Kind.PROPOSE
    bot.manners.round = state.round - 1  # (as if the offers were made last round)
    again = bot.choose(view(state, 0), legal_actions(state, 0))
    assert again[0] == Kind.PROPOSE and again[1] == 0b0110  # (its sample of hands may differ)


def test_no_seat_is_made_the_same_offer_twice_a_round() -> None:
    """Programs too: two bots that each accept the other's offer could otherwise trade
    the same cards back and forth, each trade ending a turn and holding the round open
    (a self-play game of four searches did it 5,018 times in its last round)."""
    state = make_state(4, hands={0: "o o y", 1: "g g v", 2: "g g y", 3: "g g"})
    holdings = Holdings.of_state(state, 0)
    green, orange = (0, 0, 1, 0, 0), (1, 0, 0, 0, 0)
    manners = Manners()  # every seat a program
    greedy = Greedy(state, 0, random.Random(1), holdings=holdings, plausible=0.0, manners=manners)
    assert greedy.weigh_offer(0b1110, 1.0, orange, green)[0] == 0b1110
    manners.remember(0b0010, orange, green, round_=state.round)  # made to seat 1, completed
    assert greedy.weigh_offer(0b1110, 1.0, orange, green)[0] == 0b1100  # not to seat 1 again
    assert greedy.weigh_offer(0b1110, 1.0, orange, (0, 0, 2, 0, 0))[0] == 0b1110  # other terms
    manners.remember(0b0010, orange, green, round_=state.round - 1)  # a round before
    assert greedy.weigh_offer(0b1110, 1.0, orange, green)[0] == 0b1110


def test_a_person_is_not_asked_for_cards_they_likely_lack() -> None:
    """The same offer to people holding two cards each: the bot believes them a third
    likely to hold what it asks (below :data:`PERSON_HOLDS`), so it asks them nothing,
    where a program is asked on a third."""
    state, offer, bot = offer_to_people({1: "o y", 2: "y v"})
    assert bot.choose(view(state, 0), legal_actions(state, 0)) != offer
    assert bot.manners.offered == [] and PERSON_HOLDS > 1 / 3


# Banking ------------------------------------------------------------------------------


def test_a_small_bank_draw_is_valued_exactly_by_the_chance_of_each_card() -> None:
    """Every outcome weighed by its chance: no sampling noise to make a draw look useful."""
    state = make_state(4, chips=START, hands={0: "o o y g v w"}, draw_pile="o o o v g w")
    plan = Analysis(state).plan(0)
    hand = state.hands[0]
    pay = (1, 0, 0, 0, 0)  # one orange for one card drawn
    rest = (1, 1, 1, 1, 1)
    pile = {0: 3, 2: 1, 3: 1, 4: 1}  # orange x3, green, violet, wild
    expected = sum(
        n / 6 * plan.hand_value(tuple(r + (k == kind) for k, r in enumerate(rest)))
        for kind, n in pile.items()
    )
    for seed in (1, 2):  # the same whatever the generator
        greedy = Greedy(state, 0, random.Random(seed))
        assert abs(greedy.expected_draw(plan, hand, pay) - expected) < 1e-9


def test_a_one_card_draw_must_beat_passing_by_the_margin_and_other_actions_need_not() -> None:
    """A draw of one card whose gain is within the value's noise only makes the others wait
    (one card a turn, until the pile runs out)."""
    state = make_state(4, chips=START, hands={0: "o o o y g v w"}, discard="v g")
    greedy = Greedy(state, 0, random.Random(1), bank_margin=0.1)
    plan = Analysis(state).plan(0)
    choices = CardChoices(plan, state.hands[0], base=10.0)
    draw = next(a for a in legal_actions(state, 0) if a[0] == Kind.BANK_DRAW)
    pick = next(a for a in legal_actions(state, 0) if a[0] == Kind.BANK_PICK)
    offer = next(a for a in legal_actions(state, 0) if a[0] == Kind.PROPOSE)
    assert sum(draw[DRAW_PAY]) == 1  # (the first listed draw pays one card)
    assert not greedy.worth_banking(choices, 10.05, draw)
    assert greedy.worth_banking(choices, 10.2, draw)
    for other in (pick, offer):  # a pick or an offer is worth what it scores
        assert greedy.worth_banking(choices, 10.01, other)


def test_a_slipping_bot_sometimes_plays_another_of_its_options_and_only_legal_ones() -> None:
    """``slip`` (the ``easy`` level): with chance 1 every card action is one of the grouped
    options or passing, drawn at random; with chance 0 it is the greedy choice."""
    state = make_state(4, chips=START, hands={0: "v v v"})
    legal = legal_actions(state, 0)
    best = greedy_choice(state, 0)
    chosen: Counter[Action] = Counter()
    for seed in range(40):
        bot = make_bot("greedy", 0, random.Random(seed), slip=1.0)
        action = bot.choose(view(state, 0), legal)
        assert action in legal and action[0] != Kind.PROPOSE
        chosen[action] += 1
    assert len(chosen) > 3 and chosen[best] < 20  # spread over the options, not the best
    assert chosen[(Kind.PASS,)] > 0
    steady = make_bot("greedy", 0, random.Random(1), slip=0.0)
    assert steady.choose(view(state, 0), legal) == best


def test_a_slipping_bot_still_trades_gives_and_keeps_as_greedy_does() -> None:
    """Only card actions and expansions slip: at every other decision of a game, a bot with
    ``slip`` 1 chooses what one without it chooses."""
    state = new_game(Options(players=3, seed=4))
    players = [make_bot("greedy", s, random.Random(s)) for s in range(3)]
    compared: Counter[Phase] = Counter()
    while state.phase != Phase.OVER:
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        if state.phase not in SLIPS and len(legal) > 1:
            seen = view(state, seat)
            steady, slipping = (
                make_bot("greedy", seat, random.Random(7), slip=slip).choose(seen, legal)
                for slip in (0.0, 1.0)
            )
            assert slipping == steady
            compared[state.phase] += 1
        push(state, seat, players[seat].choose(view(state, seat), legal))
    assert compared[Phase.TRADE] and compared[Phase.KEEP]
