"""The map and completion while typing a command line."""

from __future__ import annotations

import random

import pytest
from tyros_client.tui.commands import (
    COMMANDS,
    Act,
    Choose,
    Context,
    Problem,
    Say,
    completions,
    help_lines,
    legal_lines,
    move_costs,
    parse,
)
from tyros_protocol.board import BOARD
from tyros_protocol.views import GameView
from tyros_rules import (
    Options,
    Phase,
    action_to_json,
    legal_actions,
    new_game,
    seats_to_act,
    view,
)
from tyros_rules.constants import BONUS, CITY_COST, CITY_POINTS, SHIP_POINTS

from tests.client.views import game_view

from .contexts import MOVES, NAMES, OFFER, PROPOSALS, ctx

# The map and completion while typing ---------------------------------------------------


def test_move_costs_while_typing() -> None:
    c = ctx(*MOVES)
    assert move_costs("move ty ", c) == ("TY", {"31": 2, "27": 1})
    assert move_costs("move 12 ", c) == ("12", {"16W": 1, "16E": 3})
    assert move_costs("move", c) == (None, {"31": 2, "27": 1, "16W": 1, "16E": 3})
    assert move_costs("move zz ", c) == (None, {"31": 2, "27": 1, "16W": 1, "16E": 3})
    assert move_costs("city 27", c) == (None, {})


def words(found: list[tuple[str, int, str]]) -> list[str]:
    return [text for text, _, _ in found]


def test_completion_of_commands() -> None:
    c = ctx({"kind": "pass"}, *MOVES, *PROPOSALS)
    first = words(completions("", c))
    assert first[:3] == ["pass", "move", "trade"]
    assert "help" in first and "quit" in first and "city" not in first
    assert words(completions("m", c)) == ["move"]
    assert completions("mo", c)[0][1] == -2


def test_completion_of_moves() -> None:
    c = ctx(*MOVES)
    assert words(completions("move ", c)) == ["TY", "12", "22"]
    found = completions("move ty ", c)
    assert [(w, meta) for w, _, meta in found] == [("27", "cost 1"), ("31", "cost 2")]
    assert words(completions("move ty 3", c)) == ["31"]
    assert words(completions("move ty 31 ", c)) == ["pay"]
    assert words(completions("move ty 31 pay ", c)) == ["v,v", "v,w", "w,w"]
    assert words(completions("move ty 31 pay v,", c)) == ["v,v", "v,w"]
    assert words(completions("move ty 31 pay v v", c)) == []


def test_completion_of_other_commands() -> None:
    expands = [{"kind": "expand", "tile": "12", "colour": col} for col in ("orange", "yellow")]
    assert [(w, m) for w, _, m in completions("expand ", ctx(*expands))] == [
        ("12", "orange/yellow")
    ]
    assert words(completions("expand 12 ", ctx(*expands))) == ["orange", "yellow"]
    assert words(completions("expand 12 y", ctx(*expands))) == ["yellow"]
    c = ctx(*PROPOSALS)
    assert "green" in words(completions("trade ", c))
    assert "for" in words(completions("trade g ", c))
    assert words(completions("trade g for v to ", c)) == ["B", "C", "D"]
    keeps = [{"kind": "keep", "cards": ["green", "green", "wild"]}]
    assert words(completions("keep ", ctx(*keeps))) == ["g,g,w"]
    assert words(completions("help m", ctx())) == ["move"]
    picks = [{"kind": "bank_pick", "take": "violet", "pay": ["orange"] * 3}]
    assert words(completions("bank ", ctx(*picks))) == ["3:1"]
    assert words(completions("bank 3:1 ", ctx(*picks))) == ["violet"]


def test_help_has_every_command_with_examples() -> None:
    everything = "\n".join(help_lines())
    for name, info in COMMANDS.items():
        if info.hidden:  # a dialog's own command
            assert info.usage not in everything and help_lines(name)[0].startswith("no command")
            continue
        assert info.usage in everything
        for example in info.examples:
            assert example in everything, (name, example)
    move_help = help_lines("move")
    assert move_help[0] == COMMANDS["move"].usage
    assert any("e.g. move 31 27" in line for line in move_help)
    assert any("CARDS" in line for line in move_help)
    assert help_lines("fly") == ["no command 'fly'; type help for the list"]


def test_help_rules_tells_the_game_with_the_rulebooks_numbers() -> None:
    rules = "\n".join(help_lines("rules"))
    assert "'help rules'" in help_lines()[0]
    assert f"a city {' / '.join(map(str, CITY_POINTS))}," in rules
    assert f"(no city) {' / '.join(map(str, SHIP_POINTS))}." in rules
    assert f"{CITY_COST[0]} cards of the space's colour ({CITY_COST[1]} with two" in rules
    assert f"{BONUS} to the first with cities in all four empires" in rules
    assert words(completions("help ru", ctx())) == ["rules"]


def test_legal_lines_summarise_the_prompt() -> None:
    lines = legal_lines(ctx({"kind": "pass"}, *MOVES, *PROPOSALS))
    assert "move (5 destinations):" in lines
    assert "  move TY 31   cost 2" in lines
    assert any(line.startswith("trade GIVE for GET") for line in lines)
    assert legal_lines(ctx()) == ["nothing to do now: wait for your turn"]
    watching = Context(legal=[], seat=None, players=4, names=NAMES)
    assert legal_lines(watching)[0].startswith("you are watching: a spectator has nothing to play")


def test_say_sends_the_words_as_typed() -> None:
    assert parse("say Two GREEN for your violet?", ctx()) == Say("Two GREEN for your violet?")
    assert parse("chat gg", ctx()) == Say("gg")
    assert isinstance(parse("say", ctx()), Problem)
    assert isinstance(parse("say " + "x" * 301, ctx()), Problem)


def test_counter_is_typed_from_ones_own_side() -> None:
    offer = [{"kind": "answer", "accept": False}]
    hand = ("orange", "green", "green")
    # "counter 2g for violet": I give two greens and get a violet, so the proposer gives
    # the violet and gets the greens.
    assert parse("counter 2g for violet", ctx(*offer, hand=hand)) == Act(
        {"kind": "counter", "give": ["violet"], "get": ["green", "green"]}
    )
    assert isinstance(parse("counter 3g for violet", ctx(*offer, hand=hand)), Problem)
    assert isinstance(parse("counter green violet", ctx(*offer, hand=hand)), Problem)
    assert "nobody is asking" in parse("counter o for g", ctx(hand=hand)).message  # type: ignore[union-attr]


def test_an_offer_of_cards_one_does_not_hold_is_explained_before_it_goes() -> None:
    offers = [{"kind": "propose", "to": [1, 2, 3], "give": ["orange"], "get": ["green"]}]
    refused = parse("trade 2 violet for green", ctx(*offers, hand=("violet", "orange")))
    assert isinstance(refused, Problem)
    assert refused.message == "you hold orange, violet: not enough violet to offer"


def test_every_legal_action_has_a_command_line_that_makes_it() -> None:
    """What a hint tells the player to type is exactly the action it weighed."""

    from tyros_client.words import command_line
    from tyros_rules import (
        push_unchecked,
    )

    checked = 0
    for seed in (1, 2):
        rng = random.Random(seed)
        state = new_game(Options(players=4, seed=seed))
        while state.phase != Phase.OVER:
            seat = seats_to_act(state)[0]
            legal = legal_actions(state, seat)
            wire = [action_to_json(action, BOARD) for action in legal]
            seen_view = view(state, seat)
            game = GameView.model_validate(seen_view)
            ctx = Context.from_view(game, wire, list("abcd"), seat)
            for action in rng.sample(wire, min(4, len(wire))):
                assert parse(command_line(action), ctx) == Act(action), command_line(action)
                checked += 1
            push_unchecked(state, seat, rng.choice(legal))
    assert checked > 1000


def asked_to_trade() -> Context:
    """Seat 0 (green, violet) may propose, or answer OFFER: decline or counter."""
    return ctx(
        {"kind": "propose"},
        {"kind": "answer", "accept": False},
        {"kind": "counter", "give": ["orange"], "get": ["green"]},
        hand=("green", "violet"),
        trade=OFFER,
    )


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("trade g for", "say what you want for g: e.g. trade g for violet, or trade g for nothing"),
        ("trade for v", "say what you give for v: e.g. trade green for v, or trade nothing for v"),
        ("trade give g get", "say what you want for g"),
        ("counter g for", "say what you want for g: e.g. counter g for violet"),
        ("counter for v", "say what you give for v"),
    ],
)
def test_a_trade_with_a_side_left_blank_is_not_sent(line: str, said: str) -> None:
    """A line sent too soon must not give cards away: nothing is said as ``nothing``."""
    asked = asked_to_trade()
    result = parse(line, asked)
    assert isinstance(result, Problem) and said in result.message
    assert parse("trade g for nothing", asked) == Act(
        {"kind": "propose", "to": [1, 2, 3], "give": ["green"], "get": []}
    )
    assert parse("counter nothing for v", asked) == Act(
        {"kind": "counter", "give": ["violet"], "get": []}
    )


def test_a_counter_offer_the_proposer_cannot_pay_says_why() -> None:
    """C countered with terms asking for a violet the proposer does not hold: it cannot be
    completed, and ``complete C``, the dialog and the panel's words say so."""
    mine = dict(
        OFFER,
        proposer=0,
        to=[1, 2],
        answers=[
            {"seat": 1, "answer": "decline"},
            {"seat": 2, "answer": "counter", "give": ["violet"], "get": ["orange"]},
        ],
    )
    c = ctx({"kind": "withdraw"}, hand=("orange", "yellow"), trade=mine)
    refused = parse("complete c", c)
    assert isinstance(refused, Problem)
    assert refused.message == (
        "C Cyd's counter-offer asks you for violet: you hold orange, yellow: not enough violet"
    )
    dialog = parse("complete", c)
    assert isinstance(dialog, Choose)
    assert [label for label, _ in dialog.options] == ["Withdraw the offer"]
    assert "You cannot pay C Cyd's counter-offer: you hold orange, yellow" in dialog.text
    assert "No answer can be completed: withdraw the offer." in dialog.text
    assert "Waiting" not in dialog.text


def test_refusals_say_why() -> None:
    keeps = ctx(
        {"kind": "keep", "cards": ["green", "green", "violet"]},
        {"kind": "keep", "cards": []},
        hand=("green", "green", "violet", "yellow"),
    )
    for line, said in (
        ("keep g,w", "not enough wild to keep"),
        ("keep g,g,v,y", "keep at most 3 cards (you named 4)"),
    ):
        refused = parse(line, keeps)
        assert isinstance(refused, Problem) and said in refused.message, refused
    offer = Context(
        legal=[{"kind": "answer", "accept": False}],
        seat=0,
        players=4,
        names=NAMES,
        hand=["green"],
        view=game_view({"phase": "trade"}),
    )
    refused = parse("pass", offer)
    assert isinstance(refused, Problem)
    assert refused.message == "you cannot pass now: answer the trade offer first: decline"
    tried = Context(
        legal=[{"kind": "pass"}],
        seat=0,
        players=4,
        names=NAMES,
        hand=["green"],
        view=game_view({"phase": "actions", "trade_tried": True}),
    )
    refused = parse("trade g for v", tried)
    assert isinstance(refused, Problem)
    assert "your trade offer fell through this turn (one offer a turn)" in refused.message


@pytest.mark.parametrize(
    ("line", "kinds"),
    [
        ("trade g v for g", "green"),
        ("trade give v get v", "violet"),
        ("counter g for g y", "green"),
        ("counter v g for v g", "green and violet"),
    ],
)
def test_a_kind_on_both_sides_of_a_trade_is_said_before_sending(line: str, kinds: str) -> None:
    """The engine refuses it (RULES.md A6); the client names the kinds itself."""
    asked = asked_to_trade()
    assert parse(line, asked) == Problem(
        f"{kinds} on both sides changes nothing: leave it out of both"
    )


@pytest.mark.parametrize("line", ["decline", "accept"])
def test_answering_ones_own_offer_points_to_withdraw(line: str) -> None:
    mine = ctx({"kind": "withdraw"}, {"kind": "complete", "with": 2}, hand=("green",))
    assert parse(line, mine) == Problem(
        "this offer is yours: withdraw it, or complete it with a player who accepted"
    )
    assert parse(line, ctx({"kind": "pass"})) == Problem("nobody is asking you for a trade now")


def test_move_destinations_are_offered_cheapest_first() -> None:
    from tyros_client.tui.commands.board import move_words

    legal = [
        {"kind": "move", "from": "TY", "to": to, "pay": ["wild"] * cost}
        for to, cost in (("20", 5), ("31", 1), ("26", 3), ("30", 2), ("21", 3))
    ]
    words = move_words(["ty"], Context(legal=legal))
    assert [w for w, _ in words] == ["31", "30", "21", "26", "20"]
