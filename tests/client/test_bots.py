"""The bot interface, the strategy registry and the ``random`` strategy."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from tyros_client.bots import Bot, GreedyBot, ISMCTSBot, RandomBot, make_bot, strategies
from tyros_client.bots.greedy import PlainGreedyBot
from tyros_rules import (
    KEPT,
    Action,
    Kind,
    Options,
    Phase,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)

from tests.rules.builders import make_state


def test_the_strategies_are_the_entry_points_that_are_bots() -> None:
    """The ``tyros.strategies`` group is the one registry; the levels in it are factories,
    not strategies."""
    assert strategies() == {
        "greedy": GreedyBot,
        "greedy-plain": PlainGreedyBot,
        "ismcts": ISMCTSBot,
        "random": RandomBot,
    }
    assert all(cls.name == name for name, cls in strategies().items())


def test_random_reads_only_a_pending_trade() -> None:
    # It reads no events (the arena may skip them); of the view only a pending trade.
    assert RandomBot.wants_view is True
    assert RandomBot.wants_events is False


def test_make_bot_gives_seat_rng_and_options() -> None:
    rng = random.Random(3)
    bot = make_bot("random", 2, rng, iterations=50, move_time=0.5)
    assert isinstance(bot, RandomBot)
    assert bot.seat == 2
    assert bot.rng is rng
    assert bot.options == {"iterations": 50, "move_time": 0.5}


def test_unknown_strategy_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown strategy 'nobody'") as caught:
        make_bot("nobody", 0, random.Random(0))
    assert "random" in str(caught.value)


def test_bot_is_abstract() -> None:
    with pytest.raises(TypeError):
        Bot(0, random.Random(0))  # type: ignore[abstract]


def test_a_new_strategy_is_made_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    class First(Bot):
        name = "first"

        def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
            return legal[0]

    monkeypatch.setitem(strategies(), "first", First)  # (the registry, cached: one dict)
    bot = make_bot("first", 1, random.Random(0))
    assert isinstance(bot, First) and bot.seat == 1
    assert bot.choose({}, [(0,), (11,)]) == (0,)


def test_options_are_read_into_each_strategys_settings() -> None:
    """Text (the arena's ``--option``) is converted; a setting of another strategy is left
    alone; the budget of a search defaults to its seconds."""
    greedy = make_bot("greedy", 0, random.Random(0), slip="0.25", negotiate="false", depth=3)
    assert isinstance(greedy, GreedyBot)
    assert greedy.settings.slip == 0.25 and greedy.settings.negotiate is False
    search = make_bot("ismcts", 0, random.Random(0), iterations="40", slip=0.5)
    assert isinstance(search, ISMCTSBot)
    assert search.settings.iterations == 40 and search.settings.move_time is None
    plain = make_bot("greedy-plain", 0, random.Random(0))
    assert isinstance(plain, GreedyBot) and plain.settings.negotiate is False
    with pytest.raises(ValueError, match="value must be one of"):
        make_bot("ismcts", 0, random.Random(0), value="oracle")
    with pytest.raises(ValueError, match="lack_weight must be between 0 and 1"):
        make_bot("ismcts", 0, random.Random(0), lack_weight="1.5")


def test_random_is_uniform() -> None:
    legal: list[Action] = [
        (Kind.PASS,),
        (Kind.WITHDRAW,),
        (Kind.ANSWER, 0),
        (Kind.ANSWER, 1),
        (Kind.GIVE_CARD, 4),
    ]
    bot = RandomBot(0, random.Random(11))
    counts = Counter(bot.choose({}, legal) for _ in range(5000))
    assert set(counts) == set(legal)
    # 1000 expected each; the standard deviation is about 28, so this allows over 5 of them.
    assert all(850 <= n <= 1150 for n in counts.values()), counts


def test_random_is_reproducible_from_its_rng() -> None:
    legal: list[Action] = [(Kind.PASS,), (Kind.WITHDRAW,), (Kind.ANSWER, 0)]
    first = RandomBot(0, random.Random(5))
    second = RandomBot(0, random.Random(5))
    assert [first.choose({}, legal) for _ in range(50)] == [
        second.choose({}, legal) for _ in range(50)
    ]


def _choices(legal: list[Action], draws: int = 300) -> Counter[Action]:
    bot = RandomBot(0, random.Random(2))
    return Counter(bot.choose({}, legal) for _ in range(draws))


def test_random_keeps_at_most_three_cards_through_the_legal_list() -> None:
    hand = (2, 1, 1, 0, 1)  # o o y g w
    state = make_state(4, phase=Phase.KEEP, hands={0: "o o y g w", 1: "y y", 2: "", 3: "v"})
    state.keep_pending = [True, False, False, False]
    legal = legal_actions(state, 0)
    chosen = _choices(legal)
    assert set(chosen) == set(legal)  # every way of keeping at most 3 gets picked
    for action in chosen:
        kept = action[KEPT]
        assert action[0] == Kind.KEEP
        assert sum(kept) <= 3
        assert all(k <= h for k, h in zip(kept, hand, strict=True))
    assert {sum(action[KEPT]) for action in chosen} == {0, 1, 2, 3}


def test_random_gives_one_of_its_own_cards() -> None:
    state = make_state(4, phase=Phase.GIVE_CARD, current=0, hands={0: "o o w", 1: "y"})
    state.owed_to = 1
    legal = legal_actions(state, 0)
    chosen = _choices(legal)
    assert set(chosen) == {(Kind.GIVE_CARD, 0), (Kind.GIVE_CARD, 4)}  # orange or wild


def test_random_answers_and_settles_trades() -> None:
    state = make_state(3, current=0, hands={0: "o o", 1: "y", 2: "g"})
    push(state, 0, (Kind.PROPOSE, 0b110, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0))  # an orange for a yellow
    # Seat 1 holds a yellow and may accept, decline or counter; seat 2 holds none and may
    # only decline or counter (with its green).
    answers = {(Kind.ANSWER, 0), (Kind.ANSWER, 1)}
    one = set(_choices(legal_actions(state, 1)))
    assert answers <= one and {a[0] for a in one - answers} == {Kind.COUNTER}
    two = set(_choices(legal_actions(state, 2)))
    assert (Kind.ANSWER, 1) not in two and (Kind.ANSWER, 0) in two
    assert {a[0] for a in two} == {Kind.ANSWER, Kind.COUNTER}
    push(state, 1, (Kind.ANSWER, 1))
    assert set(_choices(legal_actions(state, 0))) == {(Kind.WITHDRAW,), (Kind.COMPLETE, 1)}


@pytest.mark.parametrize(
    ("players", "setup", "seed"),
    [(3, "first", 1), (4, "first", 2), (3, "variable", 3), (4, "variable", 4)],
)
def test_random_always_chooses_a_legal_action(players: int, setup: str, seed: int) -> None:
    state = new_game(Options(players=players, setup=setup, seed=seed))
    bots = [RandomBot(seat, random.Random(seed * 10 + seat)) for seat in range(players)]
    kinds: Counter[int] = Counter()
    widened = 0
    while state.phase != Phase.OVER:
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        action = bots[seat].choose(view(state, seat), legal)
        if action not in legal:  # a widened offer or counter-offer: the engine checks it
            assert action[0] in (Kind.PROPOSE, Kind.COUNTER)
            widened += 1
        push(state, seat, action)
        kinds[action[0]] += 1
    # A whole game takes the bot through expansion, card actions and trade replies.
    assert kinds[Kind.EXPAND] > 0
    assert kinds[Kind.PROPOSE] > 0 and kinds[Kind.ANSWER] > 0
    assert kinds[Kind.PASS] > 0
    assert widened > 0  # trades of more than one card each way too
