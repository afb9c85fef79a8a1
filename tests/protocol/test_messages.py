"""The protocol's pydantic models: what parses, what is refused, what servers send.

Client messages must parse exactly when the protocol allows them (unknown fields, types and
kinds, wrong field types, oversize lists and bad labels are refused with a
``ValidationError``). What the engine produces is checked against them in ``test_schema.py``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_protocol.messages import (
    ACTION_ADAPTER,
    BOT_LEVELS,
    CLIENT_ADAPTER,
    DEFAULT_BOT_LEVEL,
    SERVER_ADAPTER,
    Act,
    CompleteAction,
    Hello,
    ListTables,
    MoveAction,
    ProposeAction,
    Resume,
    parse_client_message,
    parse_server_message,
    protocol_schema,
)

from .samples import ACTION_EXAMPLES, act, refused

# Client messages that parse ------------------------------------------------------------


def test_list_tables_parses() -> None:
    msg = parse_client_message('{"type": "list_tables", "id": 1}')
    assert isinstance(msg, ListTables) and msg.id == 1
    assert isinstance(parse_client_message('{"type": "list_tables"}'), ListTables)


def test_hello_parses_with_defaults_and_with_every_field() -> None:
    msg = parse_client_message(
        '{"type": "hello", "id": 2, "protocol": 1, "name": "Ann", "table": "friday"}'
    )
    assert isinstance(msg, Hello)
    assert (msg.id, msg.protocol, msg.name, msg.table) == (2, 1, "Ann", "friday")
    assert (msg.players, msg.setup, msg.seed, msg.trade_seconds, msg.spectate) == (
        4,
        "first",
        None,
        60,
        False,
    )
    full = parse_client_message(
        json.dumps(
            {
                "type": "hello",
                "id": 3,
                "protocol": 1,
                "name": "Bo Ærø",
                "table": "a_b.c-9",
                "players": 3,
                "setup": "variable",
                "seed": 2**63 - 1,
                "trade_seconds": 5,
                "spectate": True,
            }
        )
    )
    assert isinstance(full, Hello)
    assert (full.players, full.setup, full.seed, full.trade_seconds, full.spectate) == (
        3,
        "variable",
        2**63 - 1,
        5,
        True,
    )
    assert full.name == "Bo Ærø"


def test_a_hello_names_its_bots_level_or_leaves_it_to_the_server() -> None:
    hello = {"type": "hello", "protocol": 1, "name": "Ann", "table": "t", "bots": 2}
    plain = parse_client_message(json.dumps(hello))
    assert isinstance(plain, Hello) and plain.bot_level is None  # the server's default
    for level in BOT_LEVELS:
        chosen = parse_client_message(json.dumps({**hello, "bot_level": level}))
        assert isinstance(chosen, Hello) and chosen.bot_level == level
    with pytest.raises(ValidationError, match="bot_level"):
        parse_client_message(json.dumps({**hello, "bot_level": "grandmaster"}))
    assert DEFAULT_BOT_LEVEL in BOT_LEVELS


def test_resume_parses() -> None:
    msg = parse_client_message('{"type": "resume", "id": 4, "protocol": 1, "token": "abc"}')
    assert isinstance(msg, Resume) and msg.token == "abc" and msg.id == 4


@pytest.mark.parametrize("kind", sorted(ACTION_EXAMPLES))
def test_every_action_kind_parses(kind: str) -> None:
    action, model = ACTION_EXAMPLES[kind]
    msg = parse_client_message(json.dumps(act(action)))
    assert isinstance(msg, Act)
    assert (msg.id, msg.version) == (9, 3)
    assert isinstance(msg.action, model)
    assert msg.action.kind == kind
    # What was sent comes back unchanged when dumped by alias.
    assert msg.action.model_dump(by_alias=True) == action
    assert isinstance(ACTION_ADAPTER.validate_python(action), model)


def test_every_action_kind_has_an_example() -> None:
    schema = protocol_schema()
    mapping = schema["$defs"]["Act"]["properties"]["action"]["discriminator"]["mapping"]
    assert set(mapping) == set(ACTION_EXAMPLES)


def test_aliases_round_trip() -> None:
    move = parse_client_message(json.dumps(act(ACTION_EXAMPLES["move"][0])))
    assert isinstance(move, Act) and isinstance(move.action, MoveAction)
    assert move.action.from_ == "TY"
    dumped = move.model_dump(by_alias=True)
    assert dumped["action"] == {
        "kind": "move",
        "from": "TY",
        "to": "16W",
        "pay": ["violet", "wild"],
    }
    assert "from_" not in json.dumps(dumped)
    assert parse_client_message(json.dumps(dumped)) == move
    complete = ACTION_ADAPTER.validate_python({"kind": "complete", "with": 2})
    assert isinstance(complete, CompleteAction) and complete.with_ == 2
    assert complete.model_dump(by_alias=True) == {"kind": "complete", "with": 2}
    assert ACTION_ADAPTER.validate_json(complete.model_dump_json(by_alias=True)) == complete


def test_models_are_frozen() -> None:
    msg = parse_client_message('{"type": "list_tables", "id": 1}')
    with pytest.raises(ValidationError):
        setattr(msg, "id", 2)  # noqa: B010 - assignment must be refused at run time


# Client messages that are refused --------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        {"type": "list_tables", "id": 1, "extra": 1},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t", "colour": "red"},
        {"type": "resume", "protocol": 1, "token": "x", "seat": 0},
        {"type": "action", "version": 1, "action": {"kind": "pass"}, "seat": 0},
        act({"kind": "pass", "pay": []}),
        act({"kind": "move", "from": "TY", "to": "1", "pay": [], "via": "2"}),
    ],
    ids=lambda m: json.dumps(m)[:60],
)
def test_unknown_fields_are_refused(message: dict[str, Any]) -> None:
    refused(message)


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "move", "from_": "TY", "to": "1", "pay": []},
        {"kind": "complete", "with_": 1},
        {"kind": "complete", "with": 1, "with_": 2},
    ],
    ids=["from_", "with_", "with-and-with_"],
)
def test_python_field_names_are_not_wire_names(action: dict[str, Any]) -> None:
    # On the wire the fields are "from" and "with" only (the schema says so, with
    # additionalProperties false); "from_"/"with_" are unknown fields there.
    refused(act(action))
    with pytest.raises(ValidationError):
        CLIENT_ADAPTER.validate_python(act(action))


@pytest.mark.parametrize(
    "message",
    [
        {"type": "welcome", "id": 1},
        {"type": "update", "id": 1},
        {"type": "HELLO", "protocol": 1, "name": "A", "table": "t"},
        {"type": "whisper", "text": "hi"},
        {"type": "chat", "text": "hi", "to": 1},
        {"id": 1},
        {"type": None},
        act({"kind": "cheat"}),
        act({"kind": "PASS"}),
        act({}),
    ],
    ids=lambda m: json.dumps(m)[:60],
)
def test_unknown_types_and_kinds_are_refused(message: dict[str, Any]) -> None:
    refused(message)


@pytest.mark.parametrize("text", ["[]", "1", '"hello"', "null", "true"])
def test_non_objects_are_refused(text: str) -> None:
    refused(text)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "list_tables", "id": [1]},
        {"type": "list_tables", "id": "one"},
        {"type": "list_tables", "id": -1},
        {"type": "list_tables", "id": 2**53 + 1},
        {"type": "list_tables", "id": 1.5},
        {"type": "hello", "protocol": "one", "name": "A", "table": "t"},
        {"type": "hello", "protocol": 1, "name": 7, "table": "t"},
        {"type": "hello", "protocol": 1, "name": "A", "table": ["t"]},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t", "players": 2},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t", "players": 5},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t", "setup": "random"},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t", "seed": -1},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t", "seed": 2**63},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t", "trade_seconds": 4},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t", "trade_seconds": 601},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t", "spectate": {}},
        {"type": "hello", "name": "A", "table": "t"},
        {"type": "hello", "protocol": 1, "table": "t"},
        {"type": "hello", "protocol": 1, "name": "A"},
        {"type": "resume", "protocol": 1, "token": ""},
        {"type": "resume", "protocol": 1, "token": "x" * 65},
        {"type": "resume", "protocol": 1, "token": 12},
        {"type": "resume", "protocol": 1},
        {"type": "action", "id": 1, "action": {"kind": "pass"}},
        {"type": "action", "id": 1, "version": -1, "action": {"kind": "pass"}},
        {"type": "action", "id": 1, "version": 1},
        {"type": "action", "id": 1, "version": 1, "action": "pass"},
        act({"kind": "answer", "accept": [True]}),
        act({"kind": "answer"}),
        act({"kind": "complete", "with": 4}),
        act({"kind": "complete", "with": -1}),
        act({"kind": "complete", "with": "one"}),
        act({"kind": "move", "from": "TY", "to": "1", "pay": "green"}),
        act({"kind": "move", "from": "TY", "to": "1", "pay": ["gold"]}),
        act({"kind": "move", "from": "TY", "to": "1", "pay": [None]}),
        act({"kind": "move", "from": 1, "to": "1", "pay": []}),
        act({"kind": "move", "to": "1", "pay": []}),
        act({"kind": "expand", "tile": "1", "colour": "wild"}),
        act({"kind": "expand", "tile": "1", "colour": "red"}),
        act({"kind": "bank_pick", "pay": ["green"] * 3, "take": "red"}),
        act({"kind": "give_card", "card": 3}),
        act({"kind": "keep", "cards": {"green": 3}}),
        act({"kind": "propose", "to": [4], "give": [], "get": []}),
        act({"kind": "propose", "to": 1, "give": [], "get": []}),
    ],
    ids=lambda m: json.dumps(m)[:70],
)
def test_wrong_field_types_and_values_are_refused(message: dict[str, Any]) -> None:
    refused(message)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "hello", "protocol": 1, "name": "", "table": "t"},
        {"type": "hello", "protocol": 1, "name": "x" * 33, "table": "t"},
        {"type": "hello", "protocol": 1, "name": "a\nb", "table": "t"},
        {"type": "hello", "protocol": 1, "name": "a\x00", "table": "t"},
        {"type": "hello", "protocol": 1, "name": "a\x7f", "table": "t"},
        {"type": "hello", "protocol": 1, "name": "A", "table": ""},
        {"type": "hello", "protocol": 1, "name": "A", "table": "t" * 33},
        {"type": "hello", "protocol": 1, "name": "A", "table": "fri day"},
        {"type": "hello", "protocol": 1, "name": "A", "table": "../etc"},
        {"type": "hello", "protocol": 1, "name": "A", "table": "tä"},
    ],
    ids=lambda m: json.dumps(m)[:70],
)
def test_bad_names_are_refused(message: dict[str, Any]) -> None:
    refused(message)


def test_name_and_table_limits_are_inclusive() -> None:
    msg = parse_client_message(
        json.dumps({"type": "hello", "protocol": 1, "name": "x" * 32, "table": "t" * 32})
    )
    assert isinstance(msg, Hello) and len(msg.name) == 32 and len(msg.table) == 32


@pytest.mark.parametrize(
    "action",
    [
        {"kind": "move", "from": "TY", "to": "1", "pay": ["green"] * 61},
        {"kind": "city", "space": "1", "ship": "1", "pay": ["wild"] * 61},
        {"kind": "ship", "space": "1", "pay": ["wild"] * 100},
        {"kind": "bank_draw", "pay": ["orange"] * 61},
        {"kind": "bank_pick", "pay": ["orange"] * 61, "take": "green"},
        {"kind": "propose", "to": [1], "give": ["green"] * 61, "get": []},
        {"kind": "propose", "to": [1], "give": [], "get": ["green"] * 61},
        {"kind": "propose", "to": [0, 1, 2, 3], "give": ["green"], "get": ["orange"]},
        {"kind": "propose", "to": [], "give": ["green"], "get": ["orange"]},
        {"kind": "keep", "cards": ["yellow"] * 61},
    ],
    ids=lambda a: f"{a['kind']}-{len(json.dumps(a))}",
)
def test_oversize_lists_are_refused(action: dict[str, Any]) -> None:
    refused(act(action))


def test_lists_at_their_limit_parse() -> None:
    msg = parse_client_message(
        json.dumps(
            act({"kind": "propose", "to": [1, 2, 3], "give": ["green"] * 60, "get": ["wild"] * 60})
        )
    )
    assert isinstance(msg, Act) and isinstance(msg.action, ProposeAction)
    assert len(msg.action.give) == 60 and msg.action.to == [1, 2, 3]


@pytest.mark.parametrize(
    "label",
    [
        "ty",
        "Ty",
        "TYR",
        "",
        "123",
        "1W",
        "16E",
        "T",
        "-1",
        "1 ",
        " 1",
        "1.",
        "٣",
        "0",
        "01",
        "33",
        "99",
    ],
)
def test_bad_space_labels_are_refused(label: str) -> None:
    refused(act({"kind": "expand", "tile": label, "colour": "green"}))
    refused(act({"kind": "ship", "space": label, "pay": []}))
    refused(act({"kind": "city", "space": label, "ship": "1", "pay": []}))
    refused(act({"kind": "return_tile", "tile": label}))


@pytest.mark.parametrize(
    "label", ["ty", "", "123", "16X", "16w", "W", "16WE", "TYW", "1 ", "-1", "16", "99", "1W", "0"]
)
def test_bad_port_labels_are_refused(label: str) -> None:
    refused(act({"kind": "move", "from": label, "to": "1", "pay": []}))
    refused(act({"kind": "move", "from": "TY", "to": label, "pay": []}))
    refused(act({"kind": "city", "space": "1", "ship": label, "pay": []}))


@pytest.mark.parametrize("label", ["TY", "1", "9", "15", "32", "16W", "16E"])
def test_good_port_labels_parse(label: str) -> None:
    msg = parse_client_message(
        json.dumps(act({"kind": "move", "from": label, "to": label, "pay": []}))
    )
    assert isinstance(msg, Act) and isinstance(msg.action, MoveAction)
    assert msg.action.from_ == label == msg.action.to


def test_every_board_label_is_a_valid_label() -> None:
    for space in range(BOARD.space_count):
        label = BOARD.space_label(space)
        ACTION_ADAPTER.validate_python({"kind": "expand", "tile": label, "colour": "orange"})
    for port in range(BOARD.port_count):
        label = BOARD.port_label(port)
        ACTION_ADAPTER.validate_python({"kind": "move", "from": label, "to": label, "pay": []})


# Server messages -------------------------------------------------------------------------


def test_server_messages_parse_and_refuse_unknown_fields() -> None:
    welcome = {
        "type": "welcome",
        "re": 2,
        "protocol": 1,
        "table": "friday",
        "seat": 0,
        "name": "Ann",
        "token": "x" * 43,
    }
    assert parse_server_message(json.dumps(welcome)).type == "welcome"
    spectator = {**welcome, "seat": None, "name": None, "token": None}
    assert SERVER_ADAPTER.validate_python(spectator).type == "welcome"
    error = {"type": "error", "re": None, "code": "bad_json", "message": "no"}
    assert SERVER_ADAPTER.validate_python(error).type == "error"
    with pytest.raises(ValidationError):
        SERVER_ADAPTER.validate_python({**error, "code": "no_such_code"})
    with pytest.raises(ValidationError):
        SERVER_ADAPTER.validate_python({**welcome, "secret": 1})
    with pytest.raises(ValidationError):
        SERVER_ADAPTER.validate_python({"type": "hello", "protocol": 1, "name": "A", "table": "t"})
    accepted = {"type": "accepted", "re": 1, "version": 4}
    assert SERVER_ADAPTER.validate_python(accepted).type == "accepted"
    table = {
        "type": "table",
        "table": {
            "name": "t",
            "players": 3,
            "setup": "first",
            "started": False,
            "finished": False,
            "seats": [
                {"seat": 0, "name": "A", "connected": True, "bot": False},
                {"seat": 1, "name": None, "connected": False},
            ],
        },
    }
    assert SERVER_ADAPTER.validate_python(table).type == "table"
    tables = {"type": "tables", "re": 0, "tables": [table["table"]]}
    assert SERVER_ADAPTER.validate_python(tables).type == "tables"


def test_every_error_code_is_a_valid_error() -> None:
    for code in ErrorCode:
        SERVER_ADAPTER.validate_python(
            {"type": "error", "re": 1, "code": code.value, "message": "m"}
        )
