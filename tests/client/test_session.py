"""The client session, without any socket: frames in, frames and messages out."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tyros_client.notices import (
    ACTION_ERRORS,
    JOIN_ERRORS,
    Accepted,
    ActionHandle,
    Fate,
    Handling,
    Joined,
    JoinRefused,
    Refused,
    Updated,
)
from tyros_client.session import SEAT_TAKEN, ClientSession, Join, action_message, hello_message
from tyros_protocol.errors import ErrorCode
from tyros_protocol.messages import Welcome, parse_client_message

from tests.client.frames import an_update


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def sent(session: ClientSession) -> list[dict[str, Any]]:
    """The frames the session wants sent, decoded (each one a valid client message)."""
    frames = session.frames_to_send()
    for frame in frames:
        parse_client_message(frame)
    return [json.loads(frame) for frame in frames]


def fate_of(handle: ActionHandle) -> Fate:
    """The fate, read afresh (keeps type checkers from narrowing it across messages)."""
    return handle.fate


def welcome(re: int, seat: int | None = 0, token: str | None = "tok") -> str:
    """The server's ``welcome``, built from the protocol's model."""
    return Welcome(
        re=re, protocol=1, table="t", seat=seat, name="Ann", token=token
    ).model_dump_json()


def update(version: int, legal: list[dict[str, Any]] | None) -> str:
    prompt = None if legal is None else {"version": version, "deadline": None, "legal": legal}
    return json.dumps(an_update(version, prompt=prompt))


def error(re: int | None, code: str) -> str:
    return json.dumps({"type": "error", "re": re, "code": code, "message": "no"})


PASS = {"kind": "pass"}
ANSWER = {"kind": "answer", "accept": False}


def joined(clock: Clock | None = None, **options: Any) -> ClientSession:
    session = ClientSession(Join("t", "Ann", players=3), clock=clock or Clock(), **options)
    session.connection_made()
    (hello,) = sent(session)
    session.receive(welcome(hello["id"]))
    return session


def test_every_error_code_has_a_handling_for_joins_and_for_actions() -> None:
    assert set(JOIN_ERRORS) == set(ErrorCode)
    assert set(ACTION_ERRORS) == set(ErrorCode)


def test_hello_carries_only_the_options_given_and_is_valid() -> None:
    hello = hello_message(Join("friday", "Ann"), 3)
    assert hello == {
        "type": "hello",
        "id": 3,
        "protocol": 1,
        "name": "Ann",
        "table": "friday",
        "players": 4,
        "setup": "first",
        "spectate": False,
    }
    full = hello_message(
        Join("t", "Bo", players=3, setup="variable", seed=5, trade_seconds=30, spectate=True)
    )
    assert (full["seed"], full["trade_seconds"], full["spectate"]) == (5, 30, True)
    with pytest.raises(ValueError):
        hello_message(Join("no spaces", "Ann"))
    with pytest.raises(ValueError):
        action_message(0, {"kind": "bogus"})


def test_join_then_resume_with_the_token_after_a_drop() -> None:
    session = joined()
    assert (session.seat, session.token, session.joined) == (0, "tok", True)
    session.connection_lost(None)
    assert not session.joined and session.reconnect_delay() == 0.25
    session.connection_made()
    (resume,) = sent(session)
    assert resume == {"type": "resume", "id": resume["id"], "protocol": 1, "token": "tok"}


def test_an_unknown_token_joins_afresh_and_a_full_table_is_fatal() -> None:
    session = ClientSession(Join("t", "Ann"), token="old")
    session.connection_made()
    (resume,) = sent(session)
    assert resume["type"] == "resume"
    [shown] = session.receive(error(resume["id"], "bad_token"))
    assert isinstance(shown, JoinRefused) and shown.handling is Handling.REJOIN
    assert session.token is None
    (hello,) = sent(session)
    assert hello["type"] == "hello" and session.fatal is None
    [refused] = session.receive(error(hello["id"], "table_full"))
    assert isinstance(refused, JoinRefused) and refused.handling is Handling.FATAL
    assert session.fatal is not None and "table_full" in session.fatal
    assert session.fatal_code is ErrorCode.TABLE_FULL
    assert session.close_requested and session.reconnect_delay() is None


def test_a_join_refused_for_now_is_tried_again_later() -> None:
    session = ClientSession(Join("t", "Ann"))
    session.connection_made()
    (hello,) = sent(session)
    session.receive(error(hello["id"], "too_many_connections"))
    assert session.fatal is None and session.close_requested
    session.connection_lost(1000)
    assert session.reconnect_delay() == 0.25


def test_a_stale_action_goes_again_for_the_newest_prompt_if_still_legal() -> None:
    session = joined()
    session.receive(update(4, [ANSWER, {"kind": "answer", "accept": True}]))
    handle = session.send_action(ANSWER)
    assert handle is not None and handle.fate is Fate.PENDING
    (first,) = sent(session)
    assert (first["version"], first["action"]) == (4, ANSWER)
    session.receive(update(5, [ANSWER]))  # another seat answered first
    assert session.receive(error(first["id"], "stale_version")) == []
    (again,) = sent(session)
    assert (again["version"], again["action"]) == (5, ANSWER)
    assert handle.pending  # the same action, on its way again
    # No longer legal: the refusal is passed on, nothing goes again.
    session.receive(update(6, [PASS]))
    [shown] = session.receive(error(again["id"], "stale_version"))
    assert isinstance(shown, Refused) and shown.handle is handle
    assert shown.code is ErrorCode.STALE_VERSION and sent(session) == []
    assert fate_of(handle) is Fate.REFUSED and handle.refusal == shown.error


def test_an_action_overtaken_by_a_newer_one_is_not_sent_again() -> None:
    session = joined()
    session.receive(update(4, [ANSWER]))
    session.send_action(ANSWER)
    (old,) = sent(session)
    session.receive(update(5, [ANSWER]))
    session.send_action(ANSWER)  # the program chose again for the newer prompt
    (new,) = sent(session)
    assert session.receive(error(old["id"], "stale_version"))
    assert sent(session) == []
    [accepted] = session.receive(json.dumps({"type": "accepted", "re": new["id"], "version": 6}))
    assert isinstance(accepted, Accepted) and accepted.handle is not None
    assert accepted.handle.fate is Fate.ACCEPTED
    assert session.receive(error(new["id"], "stale_version"))  # long answered: shown
    assert sent(session) == []


def test_a_rate_limited_action_goes_again_after_a_growing_pause() -> None:
    clock = Clock()
    session = joined(clock)
    session.receive(update(2, [PASS]))
    session.send_action(PASS)
    sent(session)
    assert session.receive(error(None, "rate_limited")) == []  # no id: the newest frame
    assert session.next_timer() == pytest.approx(100.25)
    session.tick()
    assert sent(session) == []
    clock.now = 100.3
    session.tick()
    (again,) = sent(session)
    assert again["action"] == PASS and session.next_timer() is None
    assert session.receive(error(again["id"], "internal_error")) == []
    assert session.next_timer() == pytest.approx(100.8)  # twice the pause


def test_a_taken_seat_is_fatal_and_other_closes_reconnect_with_backoff() -> None:
    clock = Clock()
    session = joined(clock, max_delay=1.0, give_up_after=10.0)
    session.connection_lost(1001, "going away")
    assert [session.reconnect_delay() for _ in range(4)] == [0.25, 0.5, 1.0, 1.0]
    clock.now += 11
    assert session.reconnect_delay() is None and session.fatal is not None
    other = joined()
    other.connection_lost(SEAT_TAKEN, "this seat was taken back by a new connection")
    assert other.fatal == "this seat was taken back by a new connection"
    assert other.reconnect_delay() is None


def test_nothing_is_sent_before_the_welcome_or_by_a_spectator_token() -> None:
    session = ClientSession(Join("t", "Eve", spectate=True), token="ignored")
    assert not session.send_action(PASS)
    session.connection_made()
    (hello,) = sent(session)
    assert hello["type"] == "hello" and hello["spectate"] is True
    assert session.receive("not json") == [] and session.receive("[1]") == []
    assert Handling.REPORT is ACTION_ERRORS[ErrorCode.NOT_YOUR_TURN]


def test_frames_meant_for_a_lost_connection_never_precede_the_next_join() -> None:
    session = joined()
    session.receive(update(3, [PASS]))
    handle = session.send_action(PASS)  # queued, and the connection breaks before it goes
    session.connection_lost(None)
    assert handle is not None and handle.fate is Fate.LOST  # nobody will answer it
    session.connection_made()
    assert [m["type"] for m in sent(session)] == ["resume"]


def test_a_join_refused_unread_by_the_rate_limit_is_tried_again() -> None:
    session = ClientSession(Join("t", "Ann"))
    session.connection_made()
    sent(session)
    assert session.receive(error(None, "rate_limited"))  # shown, and the join goes again
    assert session.close_requested and session.fatal is None
    session.connection_lost(1000)
    assert session.reconnect_delay() == 0.25
    session.connection_made()
    assert [m["type"] for m in sent(session)] == ["hello"]


def test_a_failing_program_gives_up_and_stops_reconnecting() -> None:
    session = joined()
    session.give_up("the bot failed")
    assert session.fatal == "the bot failed" and session.close_requested
    assert session.reconnect_delay() is None


def test_events_and_talk_are_passed_on_once_across_a_resync() -> None:
    """The session is the one place that knows what was seen: a resync's repeated events
    and talk are not passed on again; another seat's welcome starts afresh."""
    session = joined()
    start = {"type": "round_start", "version": 0, "round": 1, "starting_seat": 1}
    passed = {"type": "action", "version": 1, "seat": 1, "action": {"kind": "pass"}}

    def update_with(*events: dict[str, Any]) -> str:
        return json.dumps(an_update(1, events=list(events)))

    def shown(notice: object) -> list[dict[str, Any]]:
        assert isinstance(notice, Updated)
        return [event.wire() for event in notice.events]

    [first] = session.receive(update_with(start))
    assert isinstance(first, Updated) and first.resync and first.restart
    assert shown(first) == [start]
    [second] = session.receive(update_with(start, passed))
    assert isinstance(second, Updated) and not second.resync and shown(second) == [passed]
    line = {"type": "chat", "seq": 3, "version": 1, "seat": 1, "name": "Bob", "text": "hi"}
    line["audience"] = "table"
    assert [type(n).__name__ for n in session.receive(json.dumps(line))] == ["Heard"]
    session.connection_lost(1001)
    session.connection_made()
    [joined_again] = session.receive(welcome(sent(session)[0]["id"]))
    assert isinstance(joined_again, Joined) and not joined_again.fresh
    [again] = session.receive(update_with(start, passed))
    assert again.resync and not again.restart and shown(again) == []  # type: ignore[union-attr]
    assert session.receive(json.dumps(line)) == []  # heard before
    [other_seat] = session.receive(welcome(99, seat=1))
    assert isinstance(other_seat, Joined) and other_seat.fresh
    [afresh] = session.receive(update_with(start, passed))
    assert afresh.restart and shown(afresh) == [start, passed]  # type: ignore[union-attr]


def test_a_frame_the_protocol_does_not_allow_is_passed_over_and_counted() -> None:
    """Each frame is validated once, here: what reaches the program is a model."""
    session = joined()
    assert session.receive("not json") == []
    assert session.receive(json.dumps({"type": "update", "version": 2, "events": []})) == []
    assert session.receive(json.dumps({"type": "error", "re": 9, "code": "no_such_code"})) == []
    assert session.invalid == 3 and session.prompt is None and session.version == -1
    [notice] = session.receive(update(2, [PASS]))
    assert isinstance(notice, Updated) and notice.view.viewer == 0
    assert notice.prompt is not None and notice.prompt.legal[0].kind == "pass"
    assert session.prompt is notice.prompt and session.version == 2
