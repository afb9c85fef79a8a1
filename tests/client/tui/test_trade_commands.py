"""Trade commands into legal actions: offers, answers, counter-offers and their dialogs."""

from __future__ import annotations

from tyros_client.tui.commands import (
    Act,
    Choose,
    Prefill,
    Problem,
    parse,
)

from .contexts import OFFER, PROPOSALS, ctx

# Trades ---------------------------------------------------------------------------------


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
    assert dialog.text == (
        "You hold orange, green x2, wild: choose the cards to keep; the others are discarded."
    )
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
