"""The one description of every action kind (``actions.SPECS``, from the protocol's catalogue)
and what is derived from it: the tuple layout, the JSON form, the view's allow-list, the
protocol models, the words."""

from __future__ import annotations

import random
import typing

import pytest
from tyros_protocol import messages
from tyros_protocol.board import BOARD
from tyros_rules import (
    Action,
    Kind,
    Options,
    Phase,
    action_to_json,
    actions,
    legal_actions,
    new_game,
    parse_action,
    push_unchecked,
    seats_to_act,
    views,
)
from tyros_rules.actions import (
    CARDS,
    LENGTH,
    MOVE_PAY,
    PAY_AT,
    SPECS,
    describe_action,
)

GREEN4 = (0, 0, 4, 0, 0)
ONE_EACH = (1, 0, 1, 0, 1)

# One action of every kind and its line in the catalogue's words (seats without names).
EXAMPLES: dict[Kind, tuple[tuple[int, ...], str]] = {
    Kind.PASS: ((0,), "pass"),
    Kind.EXPAND: ((1, 12, 2), "expand green into 12"),
    Kind.RETURN_TILE: ((2, 5), "put tile 5 under the pile"),
    Kind.MOVE: ((3, 0, 23, *GREEN4), "move TY -> 23 paying green x4"),
    Kind.CITY: (
        (4, 16, BOARD.parse_port("16E"), *GREEN4),
        "build a city in 16 paying green x4 (the ship on 16E goes home)",
    ),
    Kind.SHIP: ((5, 0, *ONE_EACH), "build a ship in TY paying orange, green, wild"),
    Kind.BANK_DRAW: ((6, 0, 0, 0, 0, 0), "discard nothing, draw 0"),
    Kind.BANK_PICK: (
        (7, 3, *ONE_EACH),
        "discard orange, green, wild, take violet from the discards",
    ),
    Kind.PROPOSE: (
        (8, 0b110, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0),
        "offer orange for yellow to B player B, C player C",
    ),
    Kind.ANSWER: ((9, 1), "accept the offer"),
    Kind.COMPLETE: ((10, 2), "complete the trade with C player C"),
    Kind.WITHDRAW: ((11,), "withdraw the offer"),
    Kind.GIVE_CARD: ((12, 4), "give a wild to the city owner"),
    Kind.KEEP: ((13, 3, 0, 0, 0, 0), "keep orange x3"),
    Kind.COUNTER: (
        (14, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0),
        "counter-offer: gives violet x2 for green",
    ),
}


def test_every_kind_is_described_once_in_kind_order() -> None:
    assert list(SPECS) == list(Kind)
    # SPECS is keyed by plain ints in its type; the keys are the Kind members themselves.
    assert all(
        spec.kind == kind and spec.name == Kind(kind).name.lower() for kind, spec in SPECS.items()
    )


@pytest.mark.parametrize("kind", list(Kind))
def test_the_fields_tile_the_tuple(kind: Kind) -> None:
    spec = SPECS[kind]
    at = 1
    for field in spec.fields:
        if field.type == CARDS:
            assert field.at == slice(at, at + 5)
            at += 5
        else:
            assert field.at == at
            at += 1
    assert at == spec.length == LENGTH[kind]
    assert sorted(f.name for f in spec.wire) == sorted(f.name for f in spec.fields)


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_reads_writes_and_describes_itself(kind: Kind) -> None:
    action, text = EXAMPLES[kind]
    assert len(action) == LENGTH[kind]
    assert describe_action(action, BOARD) == text
    wire = action_to_json(action, BOARD)
    assert list(wire) == ["kind", *(f.name for f in SPECS[kind].wire)]
    assert parse_action(wire, BOARD) == action
    messages.ACTION_ADAPTER.validate_python(wire, by_alias=True, by_name=False)


def _wire_fields(model: type[messages.Model]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items() if name != "kind"]


def test_the_protocol_models_have_the_fields_of_the_description() -> None:
    union = typing.get_args(typing.get_args(messages.Action)[0])
    models = {model.model_fields["kind"].default: model for model in union}
    assert set(models) == {spec.name for spec in SPECS.values()}
    for spec in SPECS.values():
        assert _wire_fields(models[spec.name]) == [f.name for f in spec.wire], spec.name


def test_the_views_allow_list_comes_from_the_description() -> None:
    private = {spec.name: {f.name for f in spec.fields if f.private} for spec in SPECS.values()}
    assert {name: fields for name, fields in private.items() if fields} == {
        "give_card": {"card"},
        "keep": {"cards"},
    }
    for spec in SPECS.values():
        public, secret = views._ACTION_FIELDS[spec.name]
        assert set(public) | set(secret) == {f.name for f in spec.fields}
        assert set(secret) == private[spec.name]


def test_the_named_slices_read_the_fields() -> None:
    move: Action = (Kind.MOVE, 0, 23, *GREEN4)
    assert move[MOVE_PAY] == GREEN4
    assert set(PAY_AT) == {Kind.MOVE, Kind.CITY, Kind.SHIP, Kind.BANK_DRAW, Kind.BANK_PICK}
    for kind, at in PAY_AT.items():
        assert SPECS[kind].at("pay") == at
        example = EXAMPLES[Kind(kind)][0]
        assert actions.payment(example) == example[at]
    assert actions.payment((Kind.PASS,)) == (0, 0, 0, 0, 0)
    proposal = EXAMPLES[Kind.PROPOSE][0]
    trade = actions.pending_trade(3, proposal)
    assert trade[actions.TRADE_PROPOSER] == 3
    assert trade[actions.TRADE_TO] == proposal[actions.PROPOSE_TO]
    assert trade[actions.TRADE_GIVE] == proposal[actions.PROPOSE_GIVE] == (1, 0, 0, 0, 0)
    assert trade[actions.TRADE_GET] == proposal[actions.PROPOSE_GET] == (0, 1, 0, 0, 0)
    assert actions.bank_draw(ONE_EACH) == (Kind.BANK_DRAW, *ONE_EACH)
    assert actions.bank_pick(2, ONE_EACH) == (Kind.BANK_PICK, 2, *ONE_EACH)
    assert actions.answer(True) == (Kind.ANSWER, 1) and actions.give_card(4) == (Kind.GIVE_CARD, 4)


@pytest.mark.parametrize(("players", "setup", "seed"), [(3, "first", 1), (4, "variable", 2)])
def test_every_enumerated_action_fits_its_description(players: int, setup: str, seed: int) -> None:
    state = new_game(Options(players=players, setup=setup, seed=seed))
    rng = random.Random(seed)
    seen: set[int] = set()
    while state.phase != Phase.OVER:
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        for action in legal:
            seen.add(action[0])
            assert len(action) == LENGTH[action[0]]
            assert all(type(x) is int for x in action)
            assert parse_action(action_to_json(action, BOARD), BOARD) == action
            assert "{" not in describe_action(action, BOARD)
        push_unchecked(state, seat, rng.choice(legal))
    assert seen >= {Kind.PASS, Kind.EXPAND, Kind.MOVE, Kind.BANK_DRAW, Kind.PROPOSE}
