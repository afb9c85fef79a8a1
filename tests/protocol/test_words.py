"""The catalogue of words: one entry for every action kind and event type of the protocol,
and every template says only fields its item has, in formats both renderers know."""

from __future__ import annotations

import re
from typing import Any, get_args

import pytest
from tyros_protocol.actions import Action
from tyros_protocol.catalogue import ACTIONS as ENTRIES
from tyros_protocol.catalogue import TRADE_TALK
from tyros_protocol.events import Event, SeenAction
from tyros_protocol.views import GameView, TradeAnswer
from tyros_protocol.words import (
    FORMATS,
    answer_words,
    catalogue,
    completing_words,
    describe_event,
    describe_target,
    phase_during,
    phase_name,
)


def tags(union: Any, field: str) -> dict[str, type]:
    """Each model of a discriminated union by its tag (``kind`` or ``type``)."""
    models = get_args(get_args(union)[0])
    return {model.model_fields[field].default: model for model in models}


ACTIONS = tags(Action, "kind")
SEEN = tags(SeenAction, "kind")
"""(An action as the others see it may say more: a card's receiver.)"""
EVENTS = tags(Event, "type")


def fields(model: Any) -> set[str]:
    return {info.alias or name for name, info in model.model_fields.items()}


def templates(entry: Any) -> list[str]:
    return [entry] if isinstance(entry, str) else [variant["text"] for variant in entry]


def test_every_action_kind_and_event_type_has_words_and_nothing_else_does() -> None:
    words = catalogue()
    assert sorted(words["actions"]) == sorted(ACTIONS)
    assert sorted(words["events"]) == sorted(EVENTS)


def test_every_phase_of_a_view_has_a_name_and_words_for_its_time() -> None:
    phases = get_args(GameView.model_fields["phase"].annotation)
    assert sorted(catalogue()["phases"]) == sorted(phases)
    assert phase_name("actions") == "card actions" and phase_during("actions") == "the card actions"
    assert all(phase_name(p) != p and phase_during(p).startswith(("the ", "a ")) for p in phases)


@pytest.mark.parametrize(
    ("section", "tag"),
    [("actions", kind) for kind in ACTIONS] + [("events", kind) for kind in EVENTS],
)
def test_templates_name_the_items_fields_in_known_formats(section: str, tag: str) -> None:
    known = (
        fields(ACTIONS[tag]) | fields(SEEN[tag]) if section == "actions" else fields(EVENTS[tag])
    )
    entry = catalogue()[section][tag]
    said = [entry["words"], *(entry[k] for k in ("yours", "target") if k in entry)]
    for text in [text for template in said for text in templates(template)]:
        for name, form, _word in re.findall(r"\{([a-z_]+)(?:\|([a-z]+)(?::([a-z]+))?)?\}", text):
            assert name in known, (tag, name)
            assert form in ("", "plural") or form in FORMATS, (tag, form)


def test_an_event_type_without_words_is_not_worded() -> None:
    assert describe_event({"type": "a_new_event", "seat": 0}, [], None) is None


def test_a_paying_kind_says_what_it_does_without_its_payment() -> None:
    paying = {kind for kind, entry in ENTRIES.items() if "pay" in entry.layout}
    assert {kind for kind, entry in ENTRIES.items() if entry.target is not None} == paying
    move = {"kind": "move", "from": "TY", "to": "23", "pay": ["green"] * 4}
    assert describe_target(move) == "move TY -> 23"
    assert describe_target({"kind": "bank_draw", "pay": ["wild"]}) == "bank draw"


def test_the_talk_of_a_trade_and_its_answers_as_the_proposer_reads_them() -> None:
    assert {"propose", "answer", "counter", "complete", "withdraw"} == TRADE_TALK
    kinds = get_args(TradeAnswer.model_fields["answer"].annotation)
    assert sorted(catalogue()["trade"]["answers"]) == sorted(kinds)
    assert answer_words({"answer": "pending"}) == "has not answered"
    countered = {"answer": "counter", "give": ["wild"], "get": ["green"]}
    assert answer_words(countered) == "counters, you give wild for green"
    assert completing_words(countered, ["wild"], ["green"]) == (
        "their counter-offer, you give wild for green"
    )
