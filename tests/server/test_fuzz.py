"""Property-based hostile input against one live server with a game in progress.

One real server runs (in a thread, with its own event loop) for the whole
module, hosting a 4-seat game stopped at a fixed version: its four players are
connected and nobody acts. Hypothesis then sends random bytes, random text,
random JSON, mutated valid messages and out-of-turn or illegal actions, from
fresh connections and from the seated players themselves. Every input must be
answered by a typed error (or, for a frame over 64 KiB, a close with 1009),
the game's fingerprint must not move, and the server must go on serving.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.board import BOARD
from tyros_protocol.messages import Act, parse_client_message
from tyros_rules import (
    IllegalActionError,
    action_to_json,
    check_action,
    legal_actions,
    parse_action,
)
from tyros_server.app import MAX_MESSAGE_BYTES

from .fuzzing import (
    TABLE,
    LiveServer,
    advance_to_card_actions,
    classify,
    current,
    legal_for,
    open_ws,
    reply_to,
    send_and_check,
)

FUZZ = settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as tmp:
        server = LiveServer(Path(tmp) / "fuzz.db")
        try:
            for i in range(4):
                ws = server.clients.enter_context(open_ws(server.url))
                server.seats.append(ws)
                ws.send(
                    json.dumps(
                        {
                            "type": "hello",
                            "id": 1,
                            "protocol": PROTOCOL_VERSION,
                            "name": f"p{i}",
                            "table": TABLE,
                            "players": 4,
                            "seed": 7,
                            "trade_seconds": 600,
                        }
                    )
                )
                welcome = reply_to(ws)
                assert welcome["seat"] == i
                server.tokens.append(welcome["token"])
            advance_to_card_actions(server)
            yield server
        finally:
            server.close()


senders = st.sampled_from([None, 0, 1, 2, 3])


# Strategies ---------------------------------------------------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=30,
)


def nested(depth: int, leaf: Any = None) -> Any:
    value = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"a": value}
    return value


odd_values = st.one_of(
    json_scalars,
    st.sampled_from(
        [
            2**53,
            2**53 + 1,
            2**63,
            2**64,
            -(2**63) - 1,
            10**30,
            -1,
            1.5,
            1e308,
            float("inf"),
            float("-inf"),
            float("nan"),
            "",
            "\x00",
            "\u202e",
            "\ufeff",
            "💥" * 40,
            "TY",
            "16W",
            "99",
            "0",
            "wild",
            [],
            {},
            ["wild"] * 100,
            ["purple"],
            True,
            "1",
            "4",
        ]
    ),
    st.text(min_size=100, max_size=5000),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=40),
    st.integers(min_value=1, max_value=400).map(nested),
    st.lists(st.integers(min_value=0, max_value=5), max_size=10),
    json_values,
)
FIELD_NAMES = [
    "type",
    "id",
    "protocol",
    "name",
    "table",
    "players",
    "setup",
    "seed",
    "trade_seconds",
    "spectate",
    "token",
    "version",
    "action",
    "kind",
    "from",
    "to",
    "pay",
    "tile",
    "colour",
    "space",
    "ship",
    "take",
    "give",
    "get",
    "accept",
    "with",
    "card",
    "cards",
    "extra",
    "__proto__",
    "from_",
    "with_",
]


def valid_messages(version: int) -> list[dict[str, Any]]:
    action = {"type": "action", "id": 4, "version": version}
    return [
        {"type": "list_tables", "id": 1},
        {
            "type": "hello",
            "id": 2,
            "protocol": 1,
            "name": "fuzz",
            "table": TABLE,
            "players": 4,
            "setup": "first",
            "seed": 5,
            "trade_seconds": 60,
            "spectate": False,
        },
        {"type": "hello", "id": 3, "protocol": 1, "name": "eve", "table": TABLE, "spectate": True},
        {"type": "resume", "id": 5, "protocol": 1, "token": "x" * 43},
        {**action, "action": {"kind": "pass"}},
        {**action, "action": {"kind": "move", "from": "TY", "to": "23", "pay": ["green"] * 4}},
        {
            **action,
            "action": {"kind": "propose", "to": [1, 2], "give": ["wild"], "get": ["orange"]},
        },
        {**action, "action": {"kind": "city", "space": "16", "ship": "16E", "pay": ["violet"] * 5}},
        {**action, "action": {"kind": "keep", "cards": ["wild"] * 3}},
        {**action, "action": {"kind": "bank_pick", "pay": ["orange"] * 3, "take": "wild"}},
        {**action, "action": {"kind": "expand", "tile": "12", "colour": "green"}},
        {**action, "action": {"kind": "answer", "accept": True}},
    ]


spaces = st.sampled_from(["TY", *(str(i) for i in range(0, 34)), "99"])
ports = spaces | st.sampled_from(["16W", "16E", "7W", "TYE"])
colours = st.sampled_from(["orange", "yellow", "green", "violet"])
card_names = st.sampled_from(["orange", "yellow", "green", "violet", "wild"])
card_lists = st.lists(card_names, max_size=8)
wire_actions = st.one_of(
    st.just({"kind": "pass"}),
    st.just({"kind": "withdraw"}),
    st.builds(lambda t, c: {"kind": "expand", "tile": t, "colour": c}, spaces, colours),
    st.builds(lambda t: {"kind": "return_tile", "tile": t}, spaces),
    st.builds(
        lambda a, b, p: {"kind": "move", "from": a, "to": b, "pay": p}, ports, ports, card_lists
    ),
    st.builds(
        lambda s, p, c: {"kind": "city", "space": s, "ship": p, "pay": c}, spaces, ports, card_lists
    ),
    st.builds(lambda s, c: {"kind": "ship", "space": s, "pay": c}, spaces, card_lists),
    st.builds(lambda c: {"kind": "bank_draw", "pay": c}, card_lists),
    st.builds(lambda c, t: {"kind": "bank_pick", "pay": c, "take": t}, card_lists, card_names),
    st.builds(
        lambda to, g, h: {"kind": "propose", "to": to, "give": g, "get": h},
        st.lists(st.integers(min_value=0, max_value=3), min_size=1, max_size=3),
        card_lists,
        card_lists,
    ),
    st.builds(lambda a: {"kind": "answer", "accept": a}, st.booleans()),
    st.builds(lambda w: {"kind": "complete", "with": w}, st.integers(min_value=0, max_value=3)),
    st.builds(lambda c: {"kind": "give_card", "card": c}, card_names),
    st.builds(lambda c: {"kind": "keep", "cards": c}, card_lists),
)


def plausible(key: str, version: int) -> st.SearchStrategy[Any]:
    """Values of the right type for a field, often valid: these reach past the schema."""
    by_key: dict[str, st.SearchStrategy[Any]] = {
        "id": st.integers(min_value=0, max_value=2**53) | st.integers(),
        "version": st.sampled_from([version, version - 1, version + 1, 0, 2**31]),
        "protocol": st.integers(min_value=0, max_value=3),
        "name": st.text(min_size=1, max_size=40),
        "table": st.sampled_from([TABLE, "other", "x" * 33, "bad name"])
        | st.from_regex(r"\A[A-Za-z0-9_.-]{1,32}\Z"),
        "players": st.integers(min_value=2, max_value=5),
        "setup": st.sampled_from(["first", "variable", "third"]),
        "seed": st.integers(min_value=-1, max_value=2**64),
        "trade_seconds": st.integers(min_value=0, max_value=700),
        "spectate": st.booleans(),
        "token": st.text(min_size=1, max_size=70),
        "kind": st.sampled_from(
            [
                "pass",
                "move",
                "city",
                "ship",
                "expand",
                "keep",
                "answer",
                "propose",
                "withdraw",
                "complete",
                "give_card",
                "fly",
            ]
        ),
        "type": st.sampled_from(["hello", "resume", "list_tables", "action", "welcome"]),
    }
    return by_key.get(key, wire_actions if key == "action" else odd_values)


@st.composite
def mutated(draw: st.DrawFn, version: int) -> Any:
    """A valid message with one to three things done to it."""
    message: Any = copy.deepcopy(draw(st.sampled_from(valid_messages(version))))
    for _ in range(draw(st.sampled_from([1, 1, 1, 2, 3]))):
        if not isinstance(message, dict):
            break
        target = message
        if isinstance(message.get("action"), dict) and draw(st.booleans()):
            target = message["action"]
        keys = sorted(target)
        operation = draw(
            st.sampled_from(["drop", "retype", "revalue", "revalue", "revalue", "add", "wrap"])
        )
        if operation == "drop" and keys:
            del target[draw(st.sampled_from(keys))]
        elif operation == "revalue" and keys:
            key = draw(st.sampled_from(keys))
            target[key] = draw(plausible(key, version))
        elif operation == "retype" and keys:
            target[draw(st.sampled_from(keys))] = draw(odd_values)
        elif operation == "add":
            target[draw(st.sampled_from(FIELD_NAMES) | st.text(max_size=12))] = draw(odd_values)
        elif operation == "wrap":
            message = draw(
                st.sampled_from(
                    [
                        [message],
                        {"type": "action", "action": message},
                        {"message": message},
                        nested(draw(st.integers(min_value=1, max_value=300)), message),
                    ]
                )
            )
    return message


# The properties -----------------------------------------------------------------------------


@FUZZ
@given(data=st.binary(max_size=2048), sender=senders)
def test_binary_frames_get_binary_frame(live: LiveServer, data: bytes, sender: int | None) -> None:
    send_and_check(live, data, sender)


@FUZZ
@given(text=st.text(max_size=2000), sender=senders)
def test_random_text_gets_a_typed_error(live: LiveServer, text: str, sender: int | None) -> None:
    assume(classify(text)[0] is not None)
    send_and_check(live, text, sender)


@FUZZ
@given(value=json_values, sender=senders)
def test_random_json_gets_a_typed_error(live: LiveServer, value: Any, sender: int | None) -> None:
    frame = json.dumps(value)
    assume(classify(frame)[0] is not None)
    send_and_check(live, frame, sender)


@FUZZ
@given(data=st.data(), sender=senders)
def test_mutated_messages_get_a_typed_error_or_a_fair_answer(
    live: LiveServer, data: st.DataObject, sender: int | None
) -> None:
    version, _ = current(live)
    message = data.draw(mutated(version))
    frame = json.dumps(message)
    if sender is not None:
        assume(not legal_for(live, sender, message))
    send_and_check(live, frame, sender)


@settings(FUZZ, max_examples=40)
@given(depth=st.integers(min_value=1, max_value=70_000), kind=st.sampled_from("[{"), sender=senders)
def test_deep_nesting(live: LiveServer, depth: int, kind: str, sender: int | None) -> None:
    frame = "[" * depth + "]" * depth if kind == "[" else '{"a":' * depth + "1" + "}" * depth
    send_and_check(live, frame, sender)


@settings(FUZZ, max_examples=30)
@given(
    size=st.integers(min_value=MAX_MESSAGE_BYTES - 64, max_value=MAX_MESSAGE_BYTES + 4096),
    sender=senders,
)
def test_frames_around_the_size_limit(live: LiveServer, size: int, sender: int | None) -> None:
    head = '{"type":"list_tables","id":6,"pad":"'
    frame = head + "é" * ((size - len(head) - 2) // 2) + "x" * ((size - len(head) - 2) % 2) + '"}'
    send_and_check(live, frame, sender)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "x" * 20_000, "id": 7},
        {"type": "action", "id": 7, "version": 0, "action": {"kind": "y" * 20_000}},
        {"type": "hello", "id": 7, "protocol": 1, "name": "n" * 20_000, "table": TABLE},
        {"type": "list_tables", "id": 7, "z" * 20_000: 1},
    ],
    ids=["type", "kind", "name", "key"],
)
def test_errors_do_not_echo_long_input(live: LiveServer, message: dict[str, Any]) -> None:
    """An error's message is a short description (the session's _summary), not the input back."""
    with open_ws(live.url) as ws:
        ws.send(json.dumps(message))
        reply = reply_to(ws)
    assert (reply["type"], reply["code"], reply["re"]) == ("error", "bad_message", 7)
    assert len(reply["message"]) < 1000, reply["message"][:200]


# Well-formed actions the rules refuse --------------------------------------------------------


def engine_refusal(live: LiveServer, seat: int, message: dict[str, Any]) -> str | None:
    """The code the server must answer with, from the engine itself (None: it is legal)."""
    try:
        parsed = parse_client_message(json.dumps(message))
    except ValidationError:
        return "bad_message"
    assert isinstance(parsed, Act)
    wire = parsed.action.model_dump(by_alias=True)

    def decide() -> str | None:
        table = live.server.session.tables[TABLE]
        state = table.state
        assert state is not None
        # An older version is fine while the seat's decision stands (the engine judges the
        # action); one from before its decision began, or from the future, is stale.
        since, version = table.prompts.get(seat), message["version"]
        began, ended = table.overtaken.get(seat, (0, 0))
        deciding = since is not None and since <= version <= state.version
        if not deciding and began <= version < ended:
            return "too_late"
        acted = table.last_acted.get(seat, -1)
        if version != state.version and not deciding and (since is not None or version < acted):
            return "stale_version"
        try:
            check_action(state, seat, parse_action(wire, BOARD))
        except IllegalActionError as exc:
            return str(exc.reason.value)
        return None

    return live.run(decide)


@FUZZ
@given(
    action=wire_actions,
    who=st.sampled_from(["to act", "to act", 0, 1, 2, 3]),
    version_offset=st.sampled_from([0, 0, 0, 0, -1, 1, 10**6]),
)
def test_out_of_turn_and_illegal_actions_are_refused_and_change_nothing(
    live: LiveServer, action: dict[str, Any], who: int | str, version_offset: int
) -> None:
    version, to_act = current(live)
    seat = to_act if who == "to act" else int(who)
    message = {
        "type": "action",
        "id": 41,
        "version": max(0, version + version_offset),
        "action": action,
    }
    code = engine_refusal(live, seat, message)
    assume(code is not None)
    before = live.fingerprint()
    ws = live.seats[seat]
    ws.send(json.dumps(message))
    reply = reply_to(ws)
    event(f"answer: {reply.get('code')}")
    assert reply == {"type": "error", "re": 41, "code": code, "message": reply["message"]}
    if (
        seat != to_act
        and message["version"] == version
        and code not in ("bad_message", "malformed_action")
    ):
        assert code == "not_your_turn"
    assert live.fingerprint() == before


def test_the_server_still_serves_and_the_game_waits(live: LiveServer) -> None:
    """After all of the above: a fresh client lists the table, the seats can still play."""
    version, to_act = current(live)
    with open_ws(live.url) as ws:
        ws.send(json.dumps({"type": "list_tables", "id": 1}))
        tables = reply_to(ws)
    assert tables["type"] == "tables"
    info = next(t for t in tables["tables"] if t["name"] == TABLE)
    assert info["started"] and not info["finished"]
    assert [s["connected"] for s in info["seats"]] == [True] * 4

    def first_legal() -> dict[str, Any]:
        state = live.server.session.tables[TABLE].state
        assert state is not None
        return action_to_json(legal_actions(state, to_act)[0], BOARD)

    ws = live.seats[to_act]
    ws.send(
        json.dumps(
            {"type": "action", "id": 99, "version": version, "action": live.run(first_legal)}
        )
    )
    assert reply_to(ws) == {"type": "accepted", "re": 99, "version": version + 1}
