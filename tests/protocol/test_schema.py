"""The protocol's schema (``python -m tyros_protocol schema``) and the engine's output: every
``view`` of many states of seeded random games validates as ``GameView`` and every legal
action's JSON validates as the ``Action`` union."""

from __future__ import annotations

import contextlib
import io
import json
import random
from typing import Any

import pytest
from pydantic import ValidationError
from tyros_protocol.__main__ import main as protocol_main
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_protocol.messages import (
    ACTION_ADAPTER,
    CLIENT_ADAPTER,
    SERVER_ADAPTER,
    GameView,
    Hello,
    parse_client_message,
    protocol_schema,
)
from tyros_rules import (
    GameState,
    Options,
    Phase,
    action_to_json,
    event_versions,
    event_view,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)

from .samples import ACTION_EXAMPLES, CLIENT_TYPES, SERVER_TYPES, act

# The schema ----------------------------------------------------------------------------------


def run_schema_command() -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = protocol_main(["schema"])
    assert code == 0
    parsed = json.loads(out.getvalue())
    assert isinstance(parsed, dict)
    return parsed


def test_schema_command_prints_the_whole_protocol() -> None:
    schema = run_schema_command()
    assert schema == json.loads(json.dumps(protocol_schema()))
    defs = schema["$defs"]
    assert "ClientMessage" in defs and "ServerMessage" in defs
    client = defs["ClientMessage"]["discriminator"]["mapping"]
    server = defs["ServerMessage"]["discriminator"]["mapping"]
    assert set(client) == set(CLIENT_TYPES)
    assert set(server) == set(SERVER_TYPES)
    text = json.dumps(schema)
    for name in (*CLIENT_TYPES, *SERVER_TYPES, *ACTION_EXAMPLES):
        assert f'"{name}"' in text, name
    # Aliases appear as the wire names; every model forbids unknown fields.
    assert "from" in defs["MoveAction"]["properties"]
    assert "with" in defs["CompleteAction"]["properties"]
    assert "from_" not in text and "with_" not in text
    for name, definition in defs.items():
        if definition.get("type") == "object" and "properties" in definition:
            assert definition.get("additionalProperties") is False, name
    assert set(defs["ErrorCode"]["enum"]) == {code.value for code in ErrorCode}


def test_schema_command_usage() -> None:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert protocol_main([]) == 2
        assert protocol_main(["nonsense"]) == 2
    assert out.getvalue() == "" and "usage" in err.getvalue()


def test_schema_agrees_with_the_models() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = run_schema_command()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for action, _ in ACTION_EXAMPLES.values():
        validator.validate(act(action))
    validator.validate({"type": "hello", "id": 1, "protocol": 1, "name": "A", "table": "t"})
    assert not validator.is_valid({"type": "list_tables", "id": 1, "x": 2})
    assert not validator.is_valid(act({"kind": "move", "from": "ty", "to": "1", "pay": []}))


# The engine's output validates ------------------------------------------------------------


def is_over(state: GameState) -> bool:
    return state.phase == Phase.OVER


def random_game_states(seed: int, players: int, setup: str, every: int) -> Any:
    """Play a seeded random game, yielding the state every ``every`` actions and at the end."""
    state = new_game(Options(players=players, setup=setup, seed=seed))
    rng = random.Random(seed)
    steps = 0
    yield state
    while not is_over(state):
        seat = seats_to_act(state)[0]
        push(state, seat, rng.choice(legal_actions(state, seat)))
        steps += 1
        assert steps < 20_000
        if steps % every == 0 or is_over(state):
            yield state


@pytest.mark.parametrize(
    ("seed", "players", "setup"),
    [(1, 3, "first"), (2, 4, "first"), (3, 3, "variable"), (4, 4, "variable")],
)
def test_engine_views_validate_as_game_view(seed: int, players: int, setup: str) -> None:
    phases: set[str] = set()
    checked = 0
    for state in random_game_states(seed, players, setup, every=7):
        for viewer in (*range(players), None):
            raw = view(state, viewer)
            model = GameView.model_validate(raw)
            assert model.viewer == viewer
            assert model.version == state.version
            assert model.players == players and model.setup == setup
            if viewer is None:
                assert model.hand is None and model.tiles is None
                assert "hand" not in raw and "tiles" not in raw
            else:
                assert model.hand is not None and model.tiles is not None
            # The view survives the trip through JSON, as it does on the wire.
            assert GameView.model_validate_json(json.dumps(raw)) == model
            phases.add(model.phase)
            checked += 1
    assert "over" in phases and "actions" in phases
    assert checked > 50
    final = GameView.model_validate(view(state, None))
    assert final.phase == "over" and final.score is not None and final.score.winners


@pytest.mark.parametrize(
    ("seed", "players", "setup"),
    [(11, 3, "first"), (12, 4, "variable"), (13, 4, "first"), (14, 3, "variable")],
)
def test_every_legal_action_validates_as_an_action(seed: int, players: int, setup: str) -> None:
    state = new_game(Options(players=players, setup=setup, seed=seed))
    rng = random.Random(seed)
    kinds: set[str] = set()
    steps = 0
    while state.phase != Phase.OVER:
        for seat in seats_to_act(state):
            for action in legal_actions(state, seat):
                raw = action_to_json(action, BOARD)
                model = ACTION_ADAPTER.validate_python(raw)
                assert model.model_dump(by_alias=True) == raw
                kinds.add(raw["kind"])
        seat = seats_to_act(state)[0]
        push(state, seat, rng.choice(legal_actions(state, seat)))
        steps += 1
        assert steps < 20_000
    assert {"pass", "expand", "move", "propose", "answer"} <= kinds


def test_update_messages_built_from_engine_views_validate() -> None:
    state = new_game(Options(players=4, seed=5))
    seat = seats_to_act(state)[0]
    legal = [action_to_json(a, BOARD) for a in legal_actions(state, seat)]
    log = state.log or []
    update = {
        "type": "update",
        "version": state.version,
        "events": [
            shown
            for event, version in zip(log, event_versions(log, state.version), strict=True)
            if (shown := event_view(event, seat, version)) is not None
        ],
        "view": view(state, seat),
        "prompt": {"version": state.version, "deadline": None, "legal": legal},
    }
    parsed = SERVER_ADAPTER.validate_json(json.dumps(update))
    assert parsed.type == "update"
    assert CLIENT_ADAPTER.validate_python(act(legal[0], version=state.version)).type == "action"


@pytest.mark.parametrize(
    "name",
    [
        "A\u0085nn",
        "A\u202enn",
        "A\u2066nn",
        "A\u200bnn",
        "A\u200dnn",
        "\ufeffAnn",
        "A\x07nn",
        "   ",
        " Ann",
        "Ann ",
        "A\u200enn",
    ],
)
def test_a_name_with_a_control_format_or_blank_character_is_refused(name: str) -> None:
    hello = {"type": "hello", "id": 1, "protocol": 1, "name": name, "table": "t"}
    with pytest.raises(ValidationError):
        parse_client_message(json.dumps(hello))


def test_names_in_any_script_are_welcome() -> None:
    for name in ("Ann", "Zoë", "Ω-7", "李雷", "Ann Lee"):
        hello = {"type": "hello", "id": 1, "protocol": 1, "name": name, "table": "t"}
        parsed = parse_client_message(json.dumps(hello))
        assert isinstance(parsed, Hello) and parsed.name == name
