"""Replays: the model (:mod:`tyros_client.replay`) and the real screen driven by keys."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from tyros_client.bots import make_bot
from tyros_client.replay import Replay
from tyros_client.tui.app import TyrosApp
from tyros_client.tui.main import build_replay, main, parse_args
from tyros_client.tui.replaying import ReplayDriver
from tyros_rules import (
    Options,
    Phase,
    RecordError,
    event_view,
    export_record,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)

from tests.client.tui.harness import Terminal, on_screen, screen, until


class Played:
    """A game played here decision by decision, with what each viewer saw along the way."""

    def __init__(self, seed: int, decisions: int | None = None) -> None:
        self.state = new_game(Options(players=4, seed=seed))
        bots = [make_bot(name, s, random.Random(seed + s)) for s, name in enumerate(STRATEGIES)]
        self.views: dict[int, list[dict[str, Any]]] = {}
        done = 0
        while self.state.phase != Phase.OVER and (decisions is None or done < decisions):
            seat = seats_to_act(self.state)[0]
            legal = legal_actions(self.state, seat)
            push(self.state, seat, bots[seat].choose(view(self.state, seat), legal))
            done += 1
            if done % 37 == 0:
                self.views[done] = [view(self.state, v) for v in (0, 1, 2, 3, None)]


STRATEGIES = ["greedy", "random", "random", "random"]


def replay_of(ui: TyrosApp) -> ReplayDriver:
    """The replay the screen shows (a screen built by ``build_replay`` always shows one)."""
    driver = ui.replay
    assert driver is not None
    return driver


@pytest.fixture(scope="module")
def played() -> Played:
    return Played(seed=11)


@pytest.fixture(scope="module")
def record(played: Played) -> dict[str, Any]:
    return export_record(played.state)


@pytest.fixture(scope="module")
def replayed(record: dict[str, Any]) -> Replay:
    return Replay(record)


def test_a_replay_reaches_the_recorded_score_sheet(
    record: dict[str, Any], replayed: Replay
) -> None:
    assert replayed.finished
    assert replayed.view(replayed.end, 0)["score"] == record["score"]
    assert replayed.view(replayed.end, None)["score"] == record["score"]


def test_each_seat_sees_at_each_point_exactly_what_it_saw_in_the_game(
    played: Played, replayed: Replay
) -> None:
    assert played.views and replayed.decisions == played.state.version
    for decisions, seen in played.views.items():
        position = replayed.at_decision(decisions)  # decision N and what followed from it
        assert replayed.decisions_before(position) == decisions
        for viewer, expected in zip((0, 1, 2, 3, None), seen, strict=True):
            shown = replayed.view(position, viewer)
            assert shown == expected
            if viewer is not None:  # no other seat's hand: the view has its own only
                assert shown["hand"] == expected["hand"]
    log = played.state.log or []
    for viewer in (0, 2, None):  # the events through the engine's gate, with versions
        seen = replayed.events_seen(replayed.end, viewer)
        gated = [e for e in (event_view(e, viewer) for e in log) if e is not None]
        assert [{k: v for k, v in e.items() if k != "version"} for e in seen] == gated


def test_stepping_back_and_forth_gives_identical_views(replayed: Replay) -> None:
    at = replayed.at_decision(0)
    forward = []
    for _ in range(60):
        at = replayed.next_decision(at)
        forward.append((at, replayed.view(at, 1), replayed.events_seen(at, 1)))
    for at_then, view_then, events_then in reversed(forward):
        assert replayed.next_decision(replayed.previous_decision(at_then)) == at_then
        assert replayed.view(at_then, 1) == view_then
        assert replayed.events_seen(at_then, 1) == events_then


def test_turns_rounds_and_events_move_as_named(replayed: Replay) -> None:
    start = replayed.at_decision(0)
    assert replayed.previous_decision(start) == start
    # A turn: from where one player's turn begins to where the next one's does.
    at, seen = start, []
    for _ in range(12):
        at = replayed.next_turn(at)
        seen.append(at)
        state = replayed.state(at)
        before = replayed.states[replayed.decisions_before(at) - 1]
        assert state.current != before.current  # the player to act changed just there
    assert seen == sorted(set(seen))
    for later, earlier in zip(seen[1:], seen, strict=False):
        assert replayed.previous_turn(later) == earlier
    assert replayed.previous_turn(seen[0]) == start
    second_round = replayed.next_round(start)
    assert replayed.events[second_round - 1]["type"] == "round_start"
    assert replayed.previous_round(second_round) < second_round
    assert replayed.next_decision(replayed.end) == replayed.end
    assert replayed.clamp(-5) == 0 and replayed.clamp(10**9) == replayed.end


def test_hands_are_open_only_for_a_finished_game(replayed: Replay) -> None:
    rows = replayed.hands(replayed.at_decision(10))
    assert [row["seat"] for row in rows] == list(range(4))
    unfinished = Replay(export_record(Played(seed=12, decisions=40).state))
    assert not unfinished.finished and unfinished.decisions == 40
    with pytest.raises(RecordError, match="finished game's full record"):
        unfinished.hands(0)


def test_a_spectators_record_of_a_finished_game_never_opens_the_hands(played: Played) -> None:
    """A record a spectator fetched holds no hands, even once the game is over: F7 says
    so instead of failing on every redraw."""
    from tyros_client.tui.state import ClientState
    from tyros_rules import public_record

    watched = Replay(public_record(played.state, ["A", "B", "C", "D"]))
    assert watched.public and watched.finished and not watched.may_open
    with pytest.raises(RecordError):
        watched.hands(0)
    driver = ReplayDriver(watched, ClientState("replay", "t", "spectator"))
    assert "spectator" in (driver.toggle_open() or "")
    assert not driver.open
    driver.go(watched.end)  # shown to the end without a game state
    status = driver.status()
    assert status is not None and "hands open" not in status


def test_a_damaged_record_is_refused() -> None:
    with pytest.raises(RecordError):
        Replay({"format": "tyros-record/1", "events": "nope"})


def test_the_command_line_needs_an_address_or_a_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        parse_args([])
    assert "--replay FILE" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    assert main(["--replay", str(broken)]) == 1
    assert "cannot replay" in capsys.readouterr().err


async def test_the_replay_screen_by_keys(record: dict[str, Any], replayed: Replay) -> None:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=Terminal(30, 100)):
        ui = build_replay(replayed, viewer=0, colour=False)
        task = asyncio.create_task(ui.application.run_async())
        try:
            text = await on_screen(ui, "replay 0/")
            assert "as A" in text
            pipe.send_text("\x1b[C")  # Right: one decision
            await on_screen(ui, "replay 1/")
            for _ in range(5):
                pipe.send_text("\x1b[C")
            await on_screen(ui, "replay 6/")
            pipe.send_text("\x1b[D")  # Left: one back
            await on_screen(ui, "replay 5/")
            pipe.send_text("\x1b[17~")  # F6: seen as B
            await on_screen(ui, "as B")
            assert ui.state.view is not None
            assert ui.state.view["viewer"] == 1 and ui.state.seat == 1
            assert ui.state.view["hand"] == replayed.view(replay_of(ui).position, 1)["hand"]
            pipe.send_text("goto 200\r")
            await on_screen(ui, "replay 200/")
            pipe.send_text("pass\r")  # nothing is played in a replay
            await on_screen(ui, "this is a replay")
            pipe.send_text("\x15")  # Ctrl-U clears the refused line
            pipe.send_text("\x1b[18~")  # F7: every hand open
            await until(lambda: replay_of(ui).open, "hands open")
            text = await on_screen(ui, "| tiles")
            for name in replayed.names:
                assert name in text
            pipe.send_text("end\r")
            await on_screen(ui, f"replay {replayed.decisions}/")
            await until(lambda: ui.state.over, "the end")
        finally:
            ui.application.exit()
            await task
    assert json.dumps(record)  # the record was not changed by watching it
    assert "Traceback" not in screen(ui)


async def test_a_finished_game_is_replayed_from_the_server_and_an_unfinished_one_is_not(
    tmp_path: Path,
) -> None:
    from tyros_client.botclient import BotRun, play_bot
    from tyros_client.replay import fetch_record
    from tyros_protocol import PROTOCOL_VERSION
    from tyros_server.records import stored_record
    from tyros_server.storage import Store
    from websockets.asyncio.client import connect

    from tests.client.tui.harness import server

    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        # A game not started has nothing to replay.
        async with connect(url) as waiting:
            hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "table": "waiting"}
            # Seeded: seat 1 starts, so Ann's first decision comes after two others'.
            await waiting.send(json.dumps({**hello, "name": "Ann", "players": 3, "seed": 1}))
            assert json.loads(await waiting.recv())["type"] == "welcome"
            with pytest.raises(ValueError, match="not started"):
                await fetch_record(url, "waiting")
            # Two bots join; the game runs until Ann (who never acts) must decide.
            late = [
                BotRun(url=url, table="waiting", name=f"b{i}", strategy="random", players=3)
                for i in range(2)
            ]
            playing = [
                asyncio.create_task(play_bot(r, random.Random(i))) for i, r in enumerate(late)
            ]
            try:
                while True:  # Ann's messages: until a prompt asks her to act
                    message = json.loads(await asyncio.wait_for(waiting.recv(), 30))
                    if message.get("type") == "update" and message.get("prompt"):
                        break
                public = await fetch_record(url, "waiting")
            finally:
                for task in playing:
                    task.cancel()
                await asyncio.gather(*playing, return_exceptions=True)
        runs = [
            BotRun(url=url, table="done", name=f"bot{i}", strategy="random", players=3, seed=5)
            for i in range(3)
        ]
        await asyncio.gather(*(play_bot(run, random.Random(i)) for i, run in enumerate(runs)))
        record = await fetch_record(url, "done")
        with pytest.raises(ValueError, match="no table named 'nobody'"):
            await fetch_record(url, "nobody")
    replay = Replay(record)
    assert replay.finished
    assert sorted(p["name"] for p in record["players"]) == ["bot0", "bot1", "bot2"]
    assert record["score"] == replay.view(replay.end, None)["score"]

    # The game not over: only what a spectator saw, view by view, event by event (the
    # full record, the server's own, says what that was).
    assert public["format"] == "tyros-public-replay/1" and not public["finished"]
    assert "seed" not in json.dumps(public) and "options" not in public
    store = Store(str(tmp_path / "t.db"), create=False)
    try:
        full = Replay(stored_record(store, "waiting"))
    finally:
        store.close()
    watched = Replay(public)
    assert watched.public and 0 < watched.decisions <= full.decisions
    for done in range(watched.decisions + 1):
        assert watched.view(watched.at_decision(done), None) == full.view(
            full.at_decision(done), None
        )
    shown = [e for e in full.events_seen(full.end, None) if e["version"] <= watched.decisions]
    assert watched.events_seen(watched.end, None) == shown
    with pytest.raises(RecordError):
        watched.view(watched.end, 0)


async def test_a_review_made_in_the_replay_screen_marks_the_seats_decisions(
    replayed: Replay,
) -> None:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=Terminal(24, 80)):
        ui = build_replay(replayed, viewer=0, colour=False)
        ui.review_iterations = 4  # a small budget: the screen is what is tested here
        task = asyncio.create_task(ui.application.run_async())
        try:
            await on_screen(ui, "replay 0/")
            pipe.send_text("review\r")
            await until(
                lambda: replay_of(ui).reviewing or replay_of(ui).marks, "the review to start"
            )
            await until(lambda: replay_of(ui).marks, "the review's marks", 120)
            assert replay_of(ui).review_seat == 0 and replay_of(ui).reviewing is None
            costly = max(replay_of(ui).marks.values(), key=lambda d: d["cost"])
            pipe.send_text(f"goto {costly['decision']}\r")
            text = await on_screen(ui, "A's move: ")
            assert f"replay {costly['decision']}/" in text
            if costly["cost"] > 0.05:  # the log line of that decision carries its mark
                assert any(f"[-{costly['cost']:.1f}" in line.text for line in ui.state.log)
        finally:
            ui.application.exit()
            await task


def test_a_review_mark_is_said_shorter_rather_than_on_two_lines(replayed: Replay) -> None:
    from tyros_client.tui.state import ClientState

    driver = ReplayDriver(replayed, ClientState("replay", "game", "you"), viewer=0)
    best = {"kind": "move", "from": "TY", "to": "24", "pay": ["violet", "violet", "wild"]}
    marks = [
        {"decision": d, "cost": 15.2, "spread": 3.4, "best": "?", "options": [{"action": best}]}
        for d in range(1, replayed.decisions + 1)
    ]
    driver.load_review({"seat": 0, "decisions": marks})
    said = {}
    for decision in range(1, replayed.decisions + 1):
        assert driver.command(f"goto {decision}") is None
        wide, narrow = driver.status(200), driver.status(79)
        assert wide is not None and narrow is not None
        if "A's move" in wide:
            said[decision] = (wide, narrow)
    assert said, "no decision of A's marked"
    wide, narrow = next(iter(said.values()))
    assert wide.endswith("| A's move: -15.2 (+/-3.4); best: move ty 24 pay v,v,w")
    assert narrow.endswith("| A: -15.2 +/-3.4, best: move ty 24 pay v,v,w")
    assert len(narrow) <= 79 < len(wide)


def test_the_replay_help_fits_80_columns() -> None:
    from tyros_client.tui.replaying import help_lines

    lines = help_lines()
    assert all(len(line) <= 76 for line in lines)  # inside the help's frame at 80 x 24
    text = "\n".join(lines)
    for word in ("Right / Left", "F6", "F7", "goto N", "review", "marks"):
        assert word in text


def test_a_replay_shows_who_decided_the_hints_and_the_talk(record: dict[str, Any]) -> None:
    """What the record holds beside the game shows in the replay's log: a bot playing for
    an absent player (away, then back), a clock running out, a hint asked, the talk."""
    from tyros_client.tui.state import ClientState

    bare = Replay(record)
    seat_b = [n for n, at in enumerate(bare.action_at, 1) if bare.events[at]["seat"] == 1]
    away, still_away, back, timed, hinted = seat_b[2], seat_b[3], seat_b[4], seat_b[6], seat_b[7]
    marked = {
        **record,
        "decided_by": [
            {"version": away, "seat": 1, "by": "takeover"},
            {"version": still_away, "seat": 1, "by": "takeover"},
            {"version": timed, "seat": 1, "by": "clock"},
        ],
        "hinted": [{"version": hinted, "seat": 1}],
        "chat": [
            {"seq": 1, "version": 2, "seat": 0, "name": "Ann", "audience": "table", "text": "hi"},
            {
                "seq": 2,
                "version": 3,
                "seat": None,
                "name": "Eve",
                "audience": "spectators",
                "text": "only spectators hear this",
            },
        ],
    }
    state = ClientState("replay", "game", "you")
    driver = ReplayDriver(Replay(marked), state, viewer=0)
    driver.go(driver.replay.end)
    said: dict[int, list[str]] = {}
    for line in state.log:
        said.setdefault(line.version, []).append(line.text)

    def action_line(version: int) -> str:  # (a trade's outcome follows on a line of its own)
        return next(text for text in said[version] if text.startswith("B "))

    assert action_line(away).endswith("(a bot, for them: away)")
    assert action_line(still_away).endswith("(a bot, for them)")
    assert action_line(back).endswith("(back)")
    assert action_line(timed).endswith("(their clock ran out)")
    assert action_line(hinted).endswith("(after a hint)")
    talk = [line.text for line in state.log if "says:" in line.text]
    assert talk == ["A Ann says: hi"]  # a seat hears no spectator's talk
    driver.viewer = None
    driver.show()
    assert len([line for line in state.log if "says:" in line.text]) == 2
    # Shown again (each step redraws the position): every line once.
    driver.go(driver.replay.end)
    assert len([line for line in state.log if "says:" in line.text]) == 2
