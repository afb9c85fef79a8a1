"""Command lines into legal actions: words, simple commands, moves and payments, and every
legal action of real games."""

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
    Problem,
    parse,
    parse_cards,
    resolve_player,
    resolve_space,
    run_local,
)
from tyros_client.words import cards_short
from tyros_protocol.board import BOARD
from tyros_protocol.views import GameView
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

from tests.client.views import game_view

from .contexts import MOVES, NAMES, action_of, ctx, move

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
    assert "you hold 0 orange, not 2" in problem.message  # (ctx's hand is empty)
    held = parse("move ty 31 pay o", ctx(*MOVES, hand=("orange", "violet", "violet")))
    assert isinstance(held, Problem)
    assert held.message == (
        "cannot pay orange to move TY -> 31 (not what it costs); you may pay: v,v; v,w; w,w"
    )


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


def test_expand_says_why_a_tile_cannot_be_played() -> None:
    expands = [{"kind": "expand", "tile": "12", "colour": "orange"}]
    problem = parse("expand 9", ctx(*expands, tiles=("12",)))
    assert isinstance(problem, Problem)
    assert problem.message == "you do not hold tile 9; you can play: 12"
    returns = [{"kind": "return_tile", "tile": tile} for tile in ("9", "12")]
    put_back = parse("expand 9", ctx(*returns, tiles=("9", "12")))
    assert isinstance(put_back, Problem)
    assert put_back.message.startswith("no tile of yours touches an empire")


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
