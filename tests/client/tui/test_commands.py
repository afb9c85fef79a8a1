"""Command lines into legal actions: defaults, explicit payments, dialogs, errors, completion."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tyros_client.tui.commands import (
    COMMANDS,
    Act,
    Choose,
    CommandError,
    Context,
    Local,
    Prefill,
    Problem,
    Say,
    completions,
    help_lines,
    legal_lines,
    move_costs,
    parse,
    parse_cards,
    resolve_player,
    resolve_space,
    run_local,
)
from tyros_client.words import cards_short
from tyros_protocol.board import BOARD
from tyros_protocol.views import GameView, TradeInfo
from tyros_rules import (
    Options,
    Phase,
    action_to_json,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)
from tyros_rules.constants import BONUS, CITY_COST, CITY_POINTS, SHIP_POINTS

from tests.client.views import game_view

NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def move(frm: str, to: str, *pay: str) -> dict[str, Any]:
    return {"kind": "move", "from": frm, "to": to, "pay": list(pay)}


def ctx(
    *legal: dict[str, Any],
    hand: tuple[str, ...] = (),
    seat: int = 0,
    trade: dict[str, Any] | None = None,
    tiles: tuple[str, ...] = (),
) -> Context:
    return Context(
        legal=list(legal),
        seat=seat,
        players=4,
        names=NAMES,
        hand=list(hand),
        tiles=list(tiles),
        trade=None if trade is None else TradeInfo.model_validate(trade),
    )


def action_of(option: dict[str, Any] | Prefill) -> dict[str, Any]:
    """A dialog option that sends an action (not one that types a command line)."""
    assert isinstance(option, dict), option
    return option


# Words ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("green,wild", ["green", "wild"]),
        ("g w", ["green", "wild"]),
        ("2g,w", ["green", "green", "wild"]),
        ("2 green wild", ["green", "green", "wild"]),
        ("violet x2", ["violet", "violet"]),
        ("o+y", ["orange", "yellow"]),
        ("Orange, YELLOW", ["orange", "yellow"]),
        ("-", []),
        ("nothing", []),
        ("vio", ["violet"]),
    ],
)
def test_cards(text: str, cards: list[str]) -> None:
    assert parse_cards(text) == cards


@pytest.mark.parametrize("text", ["blue", "2", "g,,q", "99g"])
def test_bad_cards(text: str) -> None:
    with pytest.raises(CommandError):
        parse_cards(text)


@pytest.mark.parametrize(
    ("token", "label"),
    [
        ("ty", "TY"),
        ("TY", "TY"),
        ("tyros", "TY"),
        ("23", "23"),
        ("creta", "23"),
        ("Carthago", "13"),
        ("carthago nova", "2"),
        ("16w", "16"),
        ("16E", "16"),
        ("pelo", "22"),
    ],
)
def test_spaces(token: str, label: str) -> None:
    assert resolve_space(token) == label


@pytest.mark.parametrize("token", ["0", "33", "xyz", "ca"])
def test_bad_spaces(token: str) -> None:
    with pytest.raises(CommandError):
        resolve_space(token)


def test_an_ambiguous_name_lists_the_spaces() -> None:
    with pytest.raises(CommandError, match="could be 2 Carthago Nova, 13 Carthago"):
        resolve_space("cart")


def test_players() -> None:
    c = ctx()
    assert [resolve_player(t, c) for t in ("b", "C", "dee", "an")] == [1, 2, 3, 0]
    with pytest.raises(CommandError):
        resolve_player("zed", c)


# Simple commands --------------------------------------------------------------------


def test_pass_and_not_now() -> None:
    assert parse("pass", ctx({"kind": "pass"})) == Act({"kind": "pass"})
    problem = parse("pass", ctx({"kind": "keep", "cards": ["green"] * 3}))
    assert isinstance(problem, Problem)
    assert "now you can: keep" in problem.message
    waiting = parse(
        "pass",
        Context(
            seat=0,
            names=NAMES,
            view=game_view({"phase": "actions", "current": 1, "to_act": [1], "players": 4}),
        ),
    )
    assert isinstance(waiting, Problem)
    assert (
        waiting.message == "you cannot pass now: it is B Bob's turn (card actions): wait for them"
    )


def test_unknown_command_says_what_is_possible() -> None:
    problem = parse("fly 3", ctx({"kind": "pass"}, move("TY", "31", "violet")))
    assert isinstance(problem, Problem)
    assert "unknown command 'fly'" in problem.message
    assert "move" in problem.message and "pass" in problem.message
    assert "did you mean" not in problem.message  # (nothing near enough)
    assert isinstance(parse("   ", ctx()), Problem)


@pytest.mark.parametrize(("typed", "meant"), [("mvoe 26", "move"), ("declin", "decline")])
def test_a_mistyped_command_is_named(typed: str, meant: str) -> None:
    problem = parse(typed, ctx({"kind": "pass"}))
    assert isinstance(problem, Problem)
    assert f"(did you mean {meant}?)" in problem.message


@pytest.mark.parametrize(
    ("line", "local"),
    [
        ("help", Local("help", "")),
        ("help move", Local("help", "move")),
        ("legal", Local("legal")),
        ("log", Local("log")),
        ("score", Local("score")),
        ("quit", Local("quit")),
        ("exit", Local("quit")),
    ],
)
def test_local_commands(line: str, local: Local) -> None:
    assert parse(line, ctx()) == local


class Host:
    """The application as the client's own commands see it: what each did, in order."""

    def __init__(self) -> None:
        self.did: list[str] = []
        self.autopilot = self
        self.refuse = False

    def toggle_pass(self) -> str:
        return "auto-pass on"

    def setting(self, words: str) -> str:
        return f"set {words}"

    def quit(self) -> None:
        self.did.append("quit")

    def tell(self, text: str) -> None:
        self.did.append(f"tell {text}")

    def open_help(self, topic: str) -> None:
        self.did.append(f"help {topic}")

    def show_panel(self, name: str) -> None:
        self.did.append(f"panel {name}")

    def open_score(self) -> bool:
        self.did.append("score")
        return self.refuse

    def ask_hint(self) -> bool:
        self.did.append("hint")
        return self.refuse

    def look_back(self, review: bool) -> bool:
        self.did.append("review" if review else "replay")
        return self.refuse


@pytest.mark.parametrize(
    ("line", "did"),
    [
        ("help move", "help move"),
        ("legal", "panel legal"),
        ("log", "panel log"),
        ("score", "score"),
        ("exit", "quit"),
        ("hint", "hint"),
        ("replay", "replay"),
        ("review", "review"),
        ("autopass", "tell auto-pass on"),
        ("set confirm off", "tell set confirm off"),
    ],
)
def test_a_local_command_does_what_its_registry_entry_says(line: str, did: str) -> None:
    host = Host()
    local = parse(line, ctx())
    assert isinstance(local, Local)
    assert run_local(host, local) is False and host.did == [did]
    host.refuse = True  # a refusal (no score yet, no hint now) keeps the line
    assert run_local(host, local) is (did in ("score", "hint", "replay", "review"))


def test_every_command_that_parses_into_local_says_what_it_does() -> None:
    for name, command in COMMANDS.items():
        try:
            found: object = command.parse("", ctx())
        except CommandError:
            found = None
        assert isinstance(found, Local) == (command.run is not None), name


def test_act_sends_json_as_is() -> None:
    assert parse('act {"kind": "pass"}', ctx()) == Act({"kind": "pass"})
    assert isinstance(parse("act {nope", ctx()), Problem)
    assert isinstance(parse("act [1]", ctx()), Problem)


# Moves and payments ------------------------------------------------------------------


MOVES = (
    move("TY", "31", "violet", "violet"),
    move("TY", "31", "violet", "wild"),
    move("TY", "31", "wild", "wild"),
    move("TY", "27", "green"),
    move("TY", "27", "wild"),
    move("22", "27", "green", "green"),
    move("12", "16W", "orange"),
    move("12", "16E", "orange", "orange", "orange"),
)


def test_move_defaults_to_the_fewest_wilds() -> None:
    assert parse("move ty 31", ctx(*MOVES)) == Act(MOVES[0])
    assert parse("move TY 27", ctx(*MOVES)) == Act(MOVES[3])
    assert parse("move tyros cilicia", ctx(*MOVES)) == Act(MOVES[0])


def test_move_with_an_explicit_payment() -> None:
    assert parse("move ty 31 pay v,w", ctx(*MOVES)) == Act(MOVES[1])
    assert parse("move ty 31 pay 2 wild", ctx(*MOVES)) == Act(MOVES[2])
    problem = parse("move ty 31 pay o,o", ctx(*MOVES))
    assert isinstance(problem, Problem)
    assert "cannot pay orange x2" in problem.message and "v,v" in problem.message


def test_move_by_destination_alone() -> None:
    assert parse("move 31", ctx(*MOVES)) == Act(MOVES[0])
    both = parse("move 27", ctx(*MOVES))
    assert isinstance(both, Choose)
    assert [a for _, a in both.options] == [MOVES[5], MOVES[3]]


def test_move_to_italy_names_a_coast_or_asks() -> None:
    asked = parse("move 12 16", ctx(*MOVES))
    assert isinstance(asked, Choose)
    assert [action_of(a)["to"] for _, a in asked.options] == ["16E", "16W"]
    assert parse("move 12 16e", ctx(*MOVES)) == Act(MOVES[7])
    assert parse("move 12 16W", ctx(*MOVES)) == Act(MOVES[6])


def test_move_problems_name_what_is_possible() -> None:
    nowhere = parse("move 5 6", ctx(*MOVES))
    assert isinstance(nowhere, Problem)
    assert "no ship of yours can move from 5" in nowhere.message
    assert "TY" in nowhere.message
    unreachable = parse("move ty 23", ctx(*MOVES))
    assert isinstance(unreachable, Problem)
    assert "27 ($1)" in unreachable.message and "31 ($2)" in unreachable.message
    assert isinstance(parse("move", ctx(*MOVES)), Problem)
    assert isinstance(parse("move ty 31", ctx({"kind": "pass"})), Problem)


def test_ties_between_payments_open_a_choice() -> None:
    ships = [
        {"kind": "ship", "space": "TY", "pay": pay}
        for pay in (["orange", "green"], ["green", "green"], ["green", "wild"])
    ]
    chosen = parse("ship tyros", ctx(*ships))
    assert isinstance(chosen, Choose)
    assert action_of(chosen.options[-1][1])["pay"] == ["green", "wild"]
    assert {label for label, _ in chosen.options} == {
        "pay orange, green",
        "pay green x2",
        "pay green, wild",
    }
    assert parse("ship ty pay o,g", ctx(*ships)) == Act(ships[0])


def test_city_and_the_ship_that_goes_home() -> None:
    cities = [
        {"kind": "city", "space": "27", "ship": "27", "pay": pay}
        for pay in (["green"] * 5, ["green"] * 4 + ["wild"])
    ]
    assert parse("city 27", ctx(*cities)) == Act(cities[0])
    assert parse("city rhodos pay 4g w", ctx(*cities)) == Act(cities[1])
    italy = [
        {"kind": "city", "space": "16", "ship": port, "pay": ["orange"] * 4}
        for port in ("16W", "16E")
    ]
    asked = parse("city 16", ctx(*italy))
    assert isinstance(asked, Choose)
    assert [action_of(a)["ship"] for _, a in asked.options] == ["16E", "16W"]
    problem = parse("city 12", ctx(*cities))
    assert isinstance(problem, Problem) and "you can in: 27" in problem.message


def test_bank_forms() -> None:
    draws = [
        {"kind": "bank_draw", "pay": pay} for pay in (["orange"], ["yellow"], ["orange", "yellow"])
    ]
    picks = [
        {"kind": "bank_pick", "take": "violet", "pay": pay}
        for pay in (["orange", "orange", "yellow"], ["orange", "yellow", "wild"])
    ]
    c = ctx(*draws, *picks)
    assert parse("bank o,y", c) == Act(draws[2])
    assert parse("bank draw yellow", c) == Act(draws[1])
    one = parse("bank 1", c)
    assert isinstance(one, Choose) and len(one.options) == 2
    assert parse("bank 2", c) == Act(draws[2])
    assert parse("bank 3:1 violet", c) == Act(picks[0])
    assert parse("bank 3:1 v pay o,y,w", c) == Act(picks[1])
    assert parse("bank take violet o y w", c) == Act(picks[1])
    missing = parse("bank 3:1 green", c)
    assert isinstance(missing, Problem) and "no green card in the discard pile" in missing.message
    assert isinstance(parse("bank g,g,g", c), Problem)
    assert isinstance(parse("bank", c), Problem)


# Trades ---------------------------------------------------------------------------------


PROPOSALS = [{"kind": "propose", "to": [1, 2, 3], "give": ["green"], "get": ["violet"]}]


def test_trade_proposals() -> None:
    c = ctx(*PROPOSALS, hand=("orange", "green", "green", "wild"))
    assert parse("trade green for violet", c) == Act(PROPOSALS[0])
    assert parse("trade 2g for v,w to B", c) == Act(
        {"kind": "propose", "to": [1], "give": ["green", "green"], "get": ["violet", "wild"]}
    )
    assert parse("trade give o get y to bob,c", c) == Act(
        {"kind": "propose", "to": [1, 2], "give": ["orange"], "get": ["yellow"]}
    )
    assert parse("trade w for - to all", c) == Act(
        {"kind": "propose", "to": [1, 2, 3], "give": ["wild"], "get": []}
    )
    assert isinstance(parse("trade - for -", c), Problem)
    assert isinstance(parse("trade green violet", c), Problem)
    assert isinstance(parse("trade g for v to A", c), Problem)  # not to oneself
    assert isinstance(parse("trade g for v", ctx({"kind": "pass"})), Problem)


OFFER = {
    "proposer": 1,
    "to": [0, 2],
    "give": ["green"],
    "get": ["violet", "violet"],
    "answers": [{"seat": 0, "answer": "pending"}, {"seat": 2, "answer": "accept"}],
}


def test_answering_an_offer() -> None:
    both = ctx({"kind": "answer", "accept": False}, {"kind": "answer", "accept": True}, trade=OFFER)
    assert parse("accept", both) == Act({"kind": "answer", "accept": True})
    assert parse("decline", both) == Act({"kind": "answer", "accept": False})
    dialog = parse("answer", both)
    assert isinstance(dialog, Choose)
    assert dialog.title == "Trade offer from B Bob"
    assert "You give violet x2 and get green" in dialog.text
    assert dialog.options[0] == (
        "Accept: give violet x2, get green",
        {"kind": "answer", "accept": True},
    )
    assert dialog.options[1][0] == "Decline"
    only = ctx({"kind": "answer", "accept": False}, trade=OFFER)
    refused = parse("accept", only)
    assert isinstance(refused, Problem) and "decline, or counter" in refused.message
    dialog = parse("answer", only)
    assert isinstance(dialog, Choose) and len(dialog.options) == 1  # no card: no counter
    assert "decline, or counter-offer" in dialog.text


def test_the_offer_dialog_lets_the_player_type_a_counter_offer() -> None:
    """Counter-offers are too many to list: the dialog's last choice types the command."""
    counter = {"kind": "counter", "give": ["orange"], "get": ["green"]}
    with_cards = ctx({"kind": "answer", "accept": False}, counter, hand=("green",), trade=OFFER)
    dialog = parse("answer", with_cards)
    assert isinstance(dialog, Choose)
    assert [label for label, _ in dialog.options] == [
        "Decline",
        "Counter-offer... (you type: counter GIVE for GET)",
    ]
    assert dialog.options[-1][1] == Prefill("counter ")
    assert parse("counter green for orange", with_cards) == Act(counter)
    same = parse(
        "counter violet x2 for green", ctx(*with_cards.legal, hand=("violet",) * 2, trade=OFFER)
    )
    assert (
        isinstance(same, Problem) and same.message == "those are the offer's own terms: type accept"
    )


def test_completing_or_withdrawing_an_offer() -> None:
    mine = dict(
        OFFER,
        proposer=0,
        to=[1, 2],
        answers=[{"seat": 1, "answer": "accept"}, {"seat": 2, "answer": "pending"}],
    )
    c = ctx({"kind": "withdraw"}, {"kind": "complete", "with": 1}, trade=mine)
    assert parse("complete b", c) == Act({"kind": "complete", "with": 1})
    assert parse("complete Bob", c) == Act({"kind": "complete", "with": 1})
    assert parse("complete c", c) == Problem("C Cyd has not answered your offer yet")
    declined = dict(
        mine, answers=[{"seat": 1, "answer": "accept"}, {"seat": 2, "answer": "decline"}]
    )
    assert parse("complete c", ctx(*c.legal, trade=declined)) == Problem(
        "C Cyd declined your offer"
    )
    assert parse("withdraw", c) == Act({"kind": "withdraw"})
    dialog = parse("complete", c)
    assert isinstance(dialog, Choose)
    assert [label for label, _ in dialog.options] == [
        "Complete the trade with B Bob",
        "Withdraw the offer",
    ]
    assert "C Cyd has not answered" in dialog.text
    refused = parse("trade g for v", c)
    assert isinstance(refused, Problem) and "complete PLAYER or withdraw" in refused.message


def test_give_keep_expand_return() -> None:
    gives = [{"kind": "give_card", "card": c} for c in ("green", "wild")]
    assert parse("give w", ctx(*gives)) == Act(gives[1])
    assert isinstance(parse("give", ctx(*gives)), Choose)
    assert isinstance(parse("give orange", ctx(*gives)), Problem)

    keeps = [
        {"kind": "keep", "cards": cards}
        for cards in (["orange", "green", "green"], ["green", "green", "wild"])
    ]
    hand = ("orange", "green", "green", "wild")
    assert parse("keep g,g,w", ctx(*keeps, hand=hand)) == Act(keeps[1])
    assert parse("keep wild 2green", ctx(*keeps, hand=hand)) == Act(keeps[1])
    dialog = parse("keep", ctx(*keeps, hand=hand))
    assert isinstance(dialog, Choose)
    assert dialog.options[0][0] == "keep orange, green x2"
    assert dialog.text == "You hold orange, green x2, wild; the rest are discarded."
    assert isinstance(parse("keep o,o,o", ctx(*keeps, hand=hand)), Problem)
    # At most 3: fewer, and none at all, when the server lists them (it always does).
    fewer = [*keeps, {"kind": "keep", "cards": ["wild"]}, {"kind": "keep", "cards": []}]
    assert parse("keep w", ctx(*fewer, hand=hand)) == Act(fewer[2])
    for none in ("keep none", "keep -", "keep nothing"):
        assert parse(none, ctx(*fewer, hand=hand)) == Act(fewer[3])
    assert parse("keep", ctx(*fewer, hand=hand)).options[-1][0] == "keep none"  # type: ignore[union-attr]

    expands = [{"kind": "expand", "tile": "12", "colour": c} for c in ("orange", "yellow")]
    expands.append({"kind": "expand", "tile": "20", "colour": "green"})
    c = ctx(*expands, tiles=("12", "20", "5"))
    assert parse("expand 20", c) == Act(expands[2])
    assert parse("expand 12 y", c) == Act(expands[1])
    colours = parse("expand 12", c)
    assert isinstance(colours, Choose) and colours.title == "Tile 12 touches 2 empires"
    assert isinstance(parse("expand 12 violet", c), Problem)
    not_adjacent = parse("expand 5", c)
    assert isinstance(not_adjacent, Problem) and "no empire touches 5" in not_adjacent.message
    assert isinstance(parse("play 3", c), Problem)  # not held
    assert isinstance(parse("expand", c), Choose)

    returns = [{"kind": "return_tile", "tile": t} for t in ("5", "9")]
    assert parse("return 9", ctx(*returns)) == Act(returns[1])
    assert isinstance(parse("return", ctx(*returns)), Choose)
    assert isinstance(parse("expand 5", ctx(*returns)), Problem)


# Every legal action of real games can be typed ---------------------------------------


def command_for(action: dict[str, Any]) -> str:
    kind = action["kind"]
    pay = f" pay {cards_short(action['pay'])}" if "pay" in action else ""
    if kind == "move":
        return f"move {action['from']} {action['to']}{pay}"
    if kind in ("city", "ship"):
        return f"{kind} {action['space']}{pay}"
    if kind == "bank_draw":
        return f"bank {cards_short(action['pay'])}"
    if kind == "bank_pick":
        return f"bank 3:1 {action['take']}{pay}"
    if kind == "expand":
        return f"expand {action['tile']} {action['colour']}"
    if kind == "return_tile":
        return f"return {action['tile']}"
    if kind == "answer":
        return "accept" if action["accept"] else "decline"
    if kind == "complete":
        return f"complete {'ABCD'[action['with']]}"
    if kind == "give_card":
        return f"give {action['card']}"
    if kind == "keep":
        return f"keep {cards_short(action['cards'])}"
    if kind == "propose":
        to = ",".join("ABCD"[s] for s in action["to"])
        return f"trade {cards_short(action['give'])} for {cards_short(action['get'])} to {to}"
    if kind == "counter":  # typed from one's own side: what one gives, for what
        return f"counter {cards_short(action['get'])} for {cards_short(action['give'])}"
    return str(kind)


def test_every_legal_action_of_real_games_can_be_typed() -> None:
    """Random games: each legal action's command gives that action (or a choice holding it)."""
    rng = random.Random(7)
    seen: set[str] = set()
    for seed in range(3):
        state = new_game(Options(players=4, seed=seed))
        for _ in range(900):
            if state.phase == Phase.OVER:
                break
            seat = seats_to_act(state)[0]
            legal = legal_actions(state, seat)
            wire = [action_to_json(a, BOARD) for a in legal]
            seen_view = view(state, seat)
            game = GameView.model_validate(seen_view)
            c = Context.from_view(game, wire, NAMES, seat)
            for action in rng.sample(wire, min(len(wire), 12)):
                seen.add(action["kind"])
                result = parse(command_for(action), c)
                if isinstance(result, Choose):
                    assert action in [a for _, a in result.options], (action, result)
                else:
                    assert result == Act(action), (action, result)
            push(state, seat, rng.choice(legal))
    assert {
        "move",
        "ship",
        "bank_draw",
        "bank_pick",
        "expand",
        "propose",
        "counter",
        "keep",
        "pass",
    } <= seen


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
    import random

    from tyros_client.words import command_line
    from tyros_protocol.board import BOARD
    from tyros_rules import (
        Options,
        Phase,
        action_to_json,
        legal_actions,
        new_game,
        push_unchecked,
        seats_to_act,
        view,
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
