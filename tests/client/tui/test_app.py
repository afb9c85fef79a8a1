"""The real application, driven by keystrokes, against a real server with bots in the other seats.

The screen is prompt-toolkit's own: the tests read the characters the renderer
last drew (``renderer._last_screen``) of a 100 x 30 (or smaller) terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from tyros_client.botclient import BotRun, play_bot
from tyros_client.tokens import TokenStore
from tyros_client.tui.app import TyrosApp
from tyros_client.tui.main import build, run_client
from tyros_client.tui.net import JoinOptions, NetClient
from tyros_client.tui.state import ClientState
from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.messages import Prompt
from tyros_server.app import ServerConfig, TyrosServer
from tyros_server.session import Limits
from websockets.asyncio.client import connect

from tests.client.tui.feeding import FedState
from tests.client.tui.harness import (
    F4,
    TIMEOUT,
    ScriptedSeat,
    Terminal,
    accepted_since,
    client,
    decision_changed,
    mid_game,
    on_screen,
    play_my_turn,
    prompt_kinds,
    screen,
    seat_in_order,
    seated,
    server,
    until,
)


async def test_a_whole_game_by_keystrokes(tmp_path: Path) -> None:
    """Join, act, make mistakes, answer a trade, keep 3 cards and read the final score."""
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        options = JoinOptions(players=3, seed=11, trade_seconds=600)
        async with client(url, "g1", options=options) as (ui, keys):
            await on_screen(ui, "1 of 3 seats taken")
            giver = ScriptedSeat(url, "g1", "Bob", gift=True)
            other = ScriptedSeat(url, "g1", "Cyd")
            tasks = [asyncio.create_task(giver.run())]
            await until(lambda: len([s for s in ui.state.names if s]) == 2, "Bob seated")
            tasks.append(asyncio.create_task(other.run()))
            async with seated(tasks):
                await until(lambda: ui.state.prompt, "a first prompt")
                text = await on_screen(ui, "Round 1")
                assert "A Ann" in text and "B Bob" in text and "C Cyd" in text
                assert "Hand orange" in text

                # A command that is not legal: the client explains, nothing is sent.
                keys.send_text("move 5 6\r")
                await on_screen(ui, "you cannot move a ship now")
                assert ui.sent == []
                keys.send_text("\x15")  # Ctrl-U clears the line kept for editing

                moved: list[bool] = []
                kept = answered = server_error = False
                steps = 0
                while not ui.state.over:
                    steps += 1
                    assert steps < 400, "the game does not end"
                    accepted = ui.state.accepted
                    kinds = await until(
                        lambda: ui.state.over or prompt_kinds(ui), "a prompt for Ann"
                    )
                    if ui.state.over:
                        break
                    if "pass" in kinds and not server_error:
                        # An action the server refuses: its error shows where we look.
                        server_error = True
                        keys.send_text('act {"kind": "move", "from": "TY", "to": "5", "pay": []}\r')
                        await on_screen(ui, "the server refused that: that move is not allowed")
                        # The line comes back, selected, as the client's own refusals leave it.
                        await until(lambda: ui.buffer.text.startswith("act {"), "the line back")
                        assert ui.buffer.selection_state is not None
                        continue
                    # What the table asks shows in the request panel; no dialog opens
                    # by itself (the command line keeps the keyboard).
                    if "keep" in kinds:
                        await on_screen(ui, "End of round: keep up to 3 cards")
                        assert ui.dialog is None
                        kept = True
                    if "answer" in kinds:
                        text = await on_screen(ui, "Trade offer from B Bob")
                        assert "You give nothing and get" in text
                        assert "accept/decline/counter (F4)" in text and ui.dialog is None
                        answered = True
                    await play_my_turn(ui, keys, moved)

                    def taken(n: int = accepted) -> bool:
                        return accepted_since(ui, n) or ui.state.over

                    await until(taken, "the server to accept Ann's action")

                text = await on_screen(ui, "Final score")
                assert "Winner" in text or "Shared win" in text
                for word in ("orange", "yellow", "green", "violet", "majority", "total"):
                    assert word in text
                score = ui.state.view["score"] if ui.state.view else None
                assert score is not None and {p["seat"] for p in score["players"]} == {0, 1, 2}
                assert kept and answered and moved and server_error
                assert giver.completed
                log = "\n".join(line.text for line in ui.state.log)
                assert "B Bob trades" in log and "with A Ann" in log
                assert "A Ann: move" in log and "A Ann: pass" in log
                # Esc closes the sheet, 'score' brings it back.
                keys.send_text("\x1b")
                await until(lambda: not ui.screen.score_open, "the score sheet to close")
                keys.send_text("score\r")
                await until(lambda: ui.screen.score_open, "the score sheet again")
                await until(lambda: giver.score and other.score, "the others to finish")


async def test_a_counter_offer_from_the_offer_dialog(tmp_path: Path) -> None:
    """F4 on an offer, the dialog's last choice: the command line gets ``counter ``, the
    player types the cards, and the proposer completes the trade on those terms."""
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        options = JoinOptions(players=3, seed=11, trade_seconds=600)
        async with client(url, "g9", options=options) as (ui, keys):
            await on_screen(ui, "1 of 3 seats taken")
            giver = ScriptedSeat(url, "g9", "Bob", gift=True)
            tasks = await seat_in_order([giver, ScriptedSeat(url, "g9", "Cyd")])
            async with seated(tasks):
                moved: list[bool] = []
                for _ in range(200):
                    kinds = await until(lambda: prompt_kinds(ui), "a prompt for Ann")
                    if "answer" in kinds:
                        break
                    accepted = ui.state.accepted
                    await play_my_turn(ui, keys, moved)

                    def taken(n: int = accepted) -> bool:
                        return accepted_since(ui, n)

                    await until(taken, "Ann's action taken")
                else:
                    raise AssertionError("Bob never offered a trade")
                gift = ui.state.view["trade"]["give"] if ui.state.view else []
                hand = ui.state.view["hand"] if ui.state.view else []
                mine = next((card for card in hand if card != gift[0]), hand[0])
                keys.send_text(F4)
                dialog = await until(lambda: ui.dialog and ui.dialog.drawn, "the offer dialog")
                assert dialog[-1][0].startswith("Counter-offer")
                keys.send_text("\x1b[B" * len(dialog) + "\r")  # Down past the end, Enter
                await until(lambda: ui.buffer.text == "counter ", "counter typed for the player")
                assert ui.dialog is None and all(a["kind"] != "counter" for a in ui.sent)
                keys.send_text(f"{mine} for {gift[0]}\r")
                await until(
                    lambda: ui.sent and ui.sent[-1]["kind"] == "counter", "the counter-offer sent"
                )
                assert ui.sent[-1] == {"kind": "counter", "give": gift, "get": [mine]}
                await until(lambda: giver.completed, "Bob completing on the counter's terms")

                def traded() -> bool:
                    return any(
                        "B Bob trades" in line.text and "with A Ann" in line.text
                        for line in ui.state.log
                    )

                await until(traded, "the trade in Ann's log")


async def test_random_bots_and_a_small_terminal(tmp_path: Path) -> None:
    """Real random bots in the other seats, an 80 x 24 terminal, help and the legal list."""
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        options = JoinOptions(players=4, seed=3, trade_seconds=5)
        async with client(url, "g2", rows=24, columns=80, options=options) as (ui, keys):
            await until(lambda: ui.state.seat == 0, "a seat")
            rng = random.Random(5)
            runs = [BotRun(url, "g2", f"bot-{i}", "random", 4) for i in range(1, 4)]
            tasks = [
                asyncio.create_task(play_bot(run, random.Random(rng.random()))) for run in runs
            ]
            async with seated(tasks):
                await until(lambda: ui.state.view is not None, "the game to start")
                text = await on_screen(ui, "D bot-3")
                for label in ("TY", "29", "32", "16", "serpent"):
                    assert label in text
                keys.send_text("help\r")
                await on_screen(ui, "Commands (Tab completes")
                text = await on_screen(ui, "Help (arrows scroll, Esc closes)")
                assert "expand TILE [COLOUR]" in text and "e.g. expand 12" in text
                keys.send_text("\x1b[6~")  # PageDown scrolls the help
                await until(lambda: ui.help_pager.top > 0, "the help to scroll")
                keys.send_text("\x1b")
                await until(lambda: not ui.screen.help_open, "the help to close")
                keys.send_text("\x1bOP")  # F1 again; then typing a command closes it
                await until(lambda: ui.screen.help_open, "the help again")
                keys.send_text("pas")
                await until(lambda: ui.buffer.text == "pas", "typing on the command line")
                assert not ui.screen.help_open
                keys.send_text("\x15")  # Ctrl-U: the line is cleared
                keys.send_text("\x1b[12~")  # F2: the legal list
                await until(lambda: ui.screen.panel == "legal", "the legal panel")
                acted = 0
                moved: list[bool] = []
                while acted < 6 and not ui.state.over:
                    await until(lambda: prompt_kinds(ui) or ui.state.over, "a prompt")
                    accepted, prompt, lines = ui.state.accepted, ui.state.prompt, ui.lines_run
                    await play_my_turn(ui, keys, moved, strict=False)

                    # Random bots may withdraw an offer before we answer: the prompt then
                    # changes without our action being accepted, or the answer typed for it
                    # is refused (nothing is asked any more) and stays on the line.
                    def went_on(
                        n: int = accepted, p: Prompt | None = prompt, m: int = lines
                    ) -> bool | str:
                        return (
                            accepted_since(ui, n)
                            or (decision_changed(ui, p) and ui.dialog is None)
                            or (ui.lines_run > m and ui.buffer.text)
                        )

                    await until(went_on, "the game to go on")
                    if ui.buffer.text:
                        keys.send_text("\x15")  # Ctrl-U: clear the refused line
                        await until(lambda: not ui.buffer.text, "the line cleared")
                    acted += 1
                assert ui.sent, "nothing was sent"
                mine = [line.text for line in ui.state.log if line.text.startswith("A Ann:")]
                assert mine


async def test_spectator_and_no_colour(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        # The seats wait until the spectator has its first view: the game is then live.
        seats = [ScriptedSeat(url, "g3", name, hold=True) for name in ("Bob", "Cyd", "Dee")]
        tasks = await seat_in_order(seats)
        async with seated(tasks):
            with create_pipe_input() as keys, create_app_session(input=keys, output=Terminal()):
                ui, net = build(url, "g3", "Eve", spectate=True, options=JoinOptions(players=3))
                assert not ui.colour
                task = asyncio.create_task(run_client(ui, net))
                try:
                    await until(lambda: ui.state.view is not None, "the spectator's view")
                    for seat in seats:
                        seat.go.set()
                    text = await on_screen(ui, "watching table g3")
                    assert "Hand" not in text
                    assert ui.state.seat is None
                    # Nothing to play: the message line offers no F2 nor Tab.
                    text = await on_screen(ui, "watching (F1 help, F3 log")
                    assert "F2 legal" not in text.splitlines()[-2]
                finally:
                    ui.application.exit()
                    await asyncio.wait_for(task, TIMEOUT)


async def test_a_restarted_client_and_server_keep_the_seat(tmp_path: Path) -> None:
    tokens = TokenStore(tmp_path / "tokens.json")
    db = str(tmp_path / "r.db")
    first = TyrosServer(ServerConfig(host="127.0.0.1", port=0, db=db, allow_seed=True))
    await first.start()
    port = first.port
    url = f"ws://127.0.0.1:{port}"
    try:
        async with client(url, "r1", tokens=tokens, options=JoinOptions(players=3)) as (ui, _):
            await until(lambda: ui.state.seat == 0, "a seat")
        stored = json.loads((tmp_path / "tokens.json").read_text())
        assert list(stored) == [f"{url} r1 Ann"]
        assert stored[f"{url} r1 Ann"]["seat"] == 0
        # A restarted client resumes its seat (a resumed welcome carries no token).
        async with client(url, "r1", tokens=tokens, options=JoinOptions(players=3)) as (ui, _):
            await until(lambda: ui.state.seat == 0 and ui.state.connected, "the seat back")
            # (A new hello would be refused: the name is taken. The token is kept.)
            assert tokens.load(f"{url} r1 Ann") == stored[f"{url} r1 Ann"]["token"]
            assert ui.state.table_info is not None
            seat_names = [s.name for s in ui.state.table_info.seats]
            assert seat_names == ["Ann", None, None]
            # The server restarts: the client reconnects and resumes on its own.
            await first.stop()
            await until(lambda: not ui.state.connected, "the connection to drop")
            second = TyrosServer(ServerConfig(host="127.0.0.1", port=port, db=db, allow_seed=True))
            await second.start()
            try:
                await until(
                    lambda: ui.state.connected and ui.state.seat_status(0).connected,
                    "a reconnection",
                )
                assert ui.state.seat == 0
                assert "reconnecting" in "\n".join(line.text for line in ui.state.log)
            finally:
                ui.application.exit()
                await until(lambda: not ui.application.is_running, "the client to stop")
                await second.stop()
    finally:
        with contextlib.suppress(Exception):
            await first.stop()


async def test_a_second_client_with_the_same_name_gets_another_seat(tmp_path: Path) -> None:
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        tokens = TokenStore(tmp_path / "tokens.json")
        state_seats = []
        for name in ("Ann", "Bob"):
            async with client(
                url, "s1", tokens=tokens, name=name, options=JoinOptions(players=3)
            ) as (ui, _):
                await until(lambda: ui.state.seat is not None, "a seat")
                state_seats.append(ui.state.seat)
        assert state_seats == [0, 1]


async def test_a_limit_is_explained_in_the_servers_own_words(tmp_path: Path) -> None:
    async with (
        server(tmp_path, limits=Limits(max_open_tables=0)) as running,
        client(f"ws://127.0.0.1:{running.port}", "new", rows=24, columns=80) as (ui, _),
    ):
        await until(lambda: ui.state.fatal, "the refusal")
        assert "0 unfinished tables, as many as it may" in (ui.state.fatal or "")
        text = await on_screen(ui, "unfinished")
        assert "refused to seat you" in text


async def test_a_full_table_is_refused_with_a_hint(tmp_path: Path) -> None:
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        # The three seats hold still: the game must not end before our hello arrives (a
        # finished table refuses for another reason).
        seats = [ScriptedSeat(url, "f1", name, hold=True) for name in ("Bob", "Cyd", "Dee")]
        tasks = await seat_in_order(seats)
        async with seated(tasks), client(url, "f1", options=JoinOptions(players=3)) as (ui, _):
            await until(lambda: ui.state.fatal, "the refusal")
            assert "the table is full" in (ui.state.fatal or "")
            text = await on_screen(ui, "spectate")
            assert "full" in text


async def test_table_talk_by_f5_and_say_and_what_a_spectator_says_stays_among_spectators(
    tmp_path: Path,
) -> None:
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        seats = [ScriptedSeat(url, "talk", name, hold=True) for name in ("Bob", "Cyd")]
        async with client(url, "talk", options=JoinOptions(players=3)) as (ui, keys):
            await until(lambda: ui.state.seat == 0, "Ann seated")
            tasks = await seat_in_order(seats)
            async with seated(tasks):
                keys.send_text("\x1b[15~")  # F5 opens a chat line
                await until(lambda: ui.buffer.text == "say ", "the chat line")
                keys.send_text("two green for your violet?\r")
                await on_screen(ui, "A Ann says: two green for your violet?")
                keys.send_text("chat gg\r")
                await on_screen(ui, "A Ann says: gg")
                async with connect(url) as watcher:
                    hello = {"type": "hello", "id": 1, "protocol": 1, "name": "Zed"}
                    await watcher.send(json.dumps({**hello, "table": "talk", "spectate": True}))
                    heard: list[str] = []
                    while len(heard) < 2:  # a newcomer hears the recent talk
                        message = json.loads(await asyncio.wait_for(watcher.recv(), TIMEOUT))
                        if message["type"] == "chat":
                            heard.append(message["text"])
                    assert heard == ["two green for your violet?", "gg"]
                    await watcher.send(json.dumps({"type": "chat", "id": 2, "text": "Ann bluffs"}))
                    keys.send_text("say after the aside\r")
                    await on_screen(ui, "A Ann says: after the aside")
                assert "Ann bluffs" not in screen(ui)
                store = running.store
                assert [line["text"] for line in store.load_chat("talk")] == [
                    "two green for your violet?",
                    "gg",
                    "Ann bluffs",
                    "after the aside",
                ]


async def test_net_client_alone_reports_a_dead_server(tmp_path: Path) -> None:
    """No server at all: the client keeps trying and says so (it never raises)."""

    state = ClientState("ws://127.0.0.1:9", "x", "Ann")
    net = NetClient(state, "ws://127.0.0.1:9", max_delay=0.05)
    task = asyncio.create_task(net.run())
    try:
        await until(lambda: state.connection.startswith("offline"), "an offline state")
        assert not state.connected
        assert net.send_action({"kind": "pass"}) is None
        assert state.error is not None and "not connected" in state.error.text
    finally:
        net.stop()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.mark.parametrize(
    ("rows", "columns", "expected"),
    [
        (30, 100, ("Bithynia", "TY Tyros", "Hand orange", "Discard", "Empires", "D Dee")),
        (24, 80, ("Bithyn.", "TY Tyros", "Hand orange", "Disc", "Empires", "D Dee")),
        (40, 140, ("Bithynia", "TY Tyros", "Hand orange", "Discard", "Empires", "D Dee")),
        (16, 60, ("29", "TY", "Hand o")),  # short card words: every tile must show
        (12, 40, ("TY",)),
    ],
)
async def test_the_screen_at_every_size(rows: int, columns: int, expected: tuple[str, ...]) -> None:

    table, updates = mid_game()
    with (
        create_pipe_input() as keys,
        create_app_session(input=keys, output=Terminal(rows, columns)),
    ):
        state = FedState("ws://nowhere:1", "t", "Ann")
        state.welcomed()
        state.feed(table)
        for update in updates:
            state.feed(update)
        state.connected = True
        ui = TyrosApp(state, colour=True)
        task = asyncio.create_task(ui.application.run_async())
        try:
            text = await until(lambda: screen(ui), "a first drawing")
            for word in expected:
                text = await on_screen(ui, word)
            lines = text.splitlines()
            assert len(lines) == rows and all(len(line) <= columns for line in lines)
            # The log is on screen (its newest line) when the terminal has room for it.
            if columns >= 80:
                newest = state.log[-1].text[:20]
                assert newest in text.replace("\n", " ") or columns < 80
        finally:
            ui.application.exit()
            await asyncio.wait_for(task, TIMEOUT)


async def test_a_second_window_takes_the_seat_and_the_first_stops(tmp_path: Path) -> None:
    """Two clients with the same token: the newer one holds the seat, the older one is
    closed with 4000 and does not try to take it back (no ping-pong)."""
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        tokens = TokenStore(tmp_path / "tokens.json")
        options = JoinOptions(players=3)
        async with client(url, "w1", tokens=tokens, options=options) as (first, _):
            await until(lambda: first.state.seat == 0, "a seat")
            async with client(url, "w1", tokens=tokens, options=options) as (second, _):
                await until(
                    lambda: second.state.seat == 0 and second.state.connected,
                    "the seat in the second window",
                )
                await until(lambda: first.state.fatal, "the first window to give up")
                assert "taken back" in (first.state.fatal or "")
                await on_screen(first, "taken back")
                # The first window's network task has ended: it cannot reconnect.
                await until(
                    lambda: first.state.connection == "gave up",
                    "the first window's network task to end",
                )
                assert running.session.tables["w1"].seats[0].conn is not None
                assert second.state.connected and not first.state.connected
                assert second.state.fatal is None


async def test_the_name_of_a_finished_table_after_a_restart(tmp_path: Path) -> None:
    """After a restart the server keeps only unfinished tables in memory; ``hello`` for
    the name of a finished one must not try to create it again (the store would refuse
    and the player be told it is the server's fault) but say that the game is over."""
    from tyros_rules import (
        Options,
        Phase,
        action_to_json,
        legal_actions,
        new_game,
        push,
        seats_to_act,
    )
    from tyros_server.storage import Store

    # A whole seeded game, stored as the server stores one, and finished.
    options = Options(players=3, seed=1)
    state = new_game(options)
    db = tmp_path / "old.db"
    store = Store(str(db))
    store.create_table("friday", options.to_json(), 60, 0.0)
    for seat, name in enumerate(("Ann", "Bob", "Cyd")):
        store.add_seat("friday", seat, name, f"digest-{seat}")
    rng = random.Random(1)
    while state.phase != Phase.OVER:
        seat = seats_to_act(state)[0]
        action = rng.choice(legal_actions(state, seat))
        store.append_action("friday", state.version + 1, seat, action_to_json(action, state.board))
        push(state, seat, action)
    store.mark_finished("friday")
    store.close()
    running = TyrosServer(ServerConfig(host="127.0.0.1", port=0, db=str(db), allow_seed=True))
    await running.start()
    try:
        async with connect(f"ws://127.0.0.1:{running.port}") as ws:
            await ws.send(
                json.dumps(
                    {
                        "type": "hello",
                        "id": 1,
                        "protocol": PROTOCOL_VERSION,
                        "name": "Ann",
                        "table": "friday",
                        "players": 3,
                    }
                )
            )
            answer = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
        assert (answer["type"], answer["code"]) == ("error", "table_finished"), answer
    finally:
        await running.stop()


def test_long_lines_wrap_under_their_own_indent() -> None:
    from tyros_client.tui.controls import wrap

    assert wrap("short", 10) == ["short"]
    pieces = wrap("    one two three four five six seven eight", 20)
    assert pieces[0] == "    one two three"
    assert len(pieces) > 2 and all(p.startswith("      ") and p[6] != " " for p in pieces[1:])
    assert all(len(p) <= 20 for p in pieces)
    assert " ".join(p.strip() for p in pieces) == "one two three four five six seven eight"
    assert all(len(piece) <= 5 for piece in wrap("abcdefghijklmnopqrstuvwxyz", 5))


async def test_a_whole_game_against_greedy_bots_at_80x24(tmp_path: Path) -> None:
    """The player at an 80 x 24 terminal against two greedy bots over a real server, by
    keystrokes only, to the score sheet: offers answered by typing, keeps through F4."""
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        options = JoinOptions(players=3, seed=21, trade_seconds=600)
        async with client(url, "gb", rows=24, columns=80, options=options) as (ui, keys):
            await until(lambda: ui.state.seat == 0, "a seat")
            runs = [BotRun(url, "gb", f"greedy-{i}", "greedy", 3) for i in (1, 2)]
            tasks = []
            for i, run in enumerate(runs):  # seated in order, B then C
                tasks.append(asyncio.create_task(play_bot(run, random.Random(i))))

                def has_seat(run: BotRun = run) -> bool:
                    return run.seat is not None

                await until(has_seat, f"{run.name} seated")
            async with seated(tasks):
                moved: list[bool] = []
                steps = 0
                while not ui.state.over:
                    steps += 1
                    assert steps < 400, "the game does not end"
                    kinds = await until(lambda: ui.state.over or prompt_kinds(ui), "a prompt")
                    if ui.state.over:
                        break
                    accepted, prompt, lines = ui.state.accepted, ui.state.prompt, ui.lines_run
                    await play_my_turn(ui, keys, moved)

                    def went_on(
                        n: int = accepted, p: Prompt | None = prompt, m: int = lines
                    ) -> bool | str:
                        return (
                            accepted_since(ui, n)
                            or ui.state.over
                            or (decision_changed(ui, p) and ui.dialog is None)
                            or (ui.lines_run > m and ui.buffer.text)
                        )

                    await until(went_on, f"the game to go on after {sorted(kinds)}")
                    if ui.buffer.text:
                        keys.send_text("\x15")
                        await until(lambda: not ui.buffer.text, "the line cleared")
                text = await on_screen(ui, "Final score")
                assert "Winner" in text or "Shared win" in text
                await until(lambda: all(run.score for run in runs), "the bots to finish")
                assert all(run.score == ui.state.view["score"] for run in runs if ui.state.view)
                # From the end to the review: the message line says how, 'review' does it.
                keys.send_text("\x1b")
                text = await on_screen(ui, "'replay' or 'review' looks back")
                ui.review_iterations = 4  # a small budget: the screen is what is tested here
                keys.send_text("review\r")
                await until(lambda: ui.replay is not None, "the game's replay")
                replay = ui.replay
                assert replay is not None and replay.viewer == 0 and not replay.replay.public
                await until(lambda: replay.marks, "the review's marks", 120)
                assert replay.review_seat == 0
                keys.send_text("\x1b[D")  # Left: one decision back
                last = replay.replay.decisions
                await until(
                    lambda: replay.replay.decisions_before(replay.position) == last - 1,
                    "one decision back",
                )
                assert f"replay {last - 1}/{last}" in (replay.status() or "")


def test_a_request_too_long_for_its_panel_says_there_is_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tyros_client.tui import controls, render

    offer = "C bot-2 offers you green for your violet x2 and a wild, 40 s left to answer"
    monkeypatch.setattr(render, "request_lines", lambda ui: [("class:request", offer)])
    panel = controls.RequestControl(None)  # type: ignore[arg-type]
    whole = panel.create_content(80, 3)
    assert "".join(t for _, t, *_ in whole.get_line(0)) == offer  # room enough: as it is
    cut = panel.create_content(30, 2)
    last = "".join(t for _, t, *_ in cut.get_line(1))
    assert last.endswith("... (F4 shows all)") and len(last) <= 30
    # The cut line takes the words that fit beside the "more", from the lines it hides too.
    monkeypatch.setattr(
        render, "request_lines", lambda ui: [("class:request.how", "accept"), ("", offer)]
    )
    cut = panel.create_content(60, 1)
    only = "".join(t for _, t, *_ in cut.get_line(0))
    assert only == "accept C bot-2 offers you green for your ... (F4 shows all)", only


def test_a_cut_request_or_message_ends_on_a_whole_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "get or ... (F4 shows all)" read as the word "or": a cut falls between words."""
    from tyros_client.tui import controls, render

    offer = "C bot-2 counters: you give violet, get orange x2 and a wild, 40 s left to answer"
    monkeypatch.setattr(render, "request_lines", lambda ui: [("class:request", offer)])
    cut = controls.RequestControl(None).create_content(40, 2)  # type: ignore[arg-type]
    last = "".join(t for _, t, *_ in cut.get_line(1))
    kept = last.removesuffix(" ... (F4 shows all)").split()
    assert kept and kept[-1] in offer.split() and len(last) <= 40
    words = "from ty you can reach: " + ", ".join(f"{n} (${n % 4 + 1})" for n in range(10, 40))
    monkeypatch.setattr(render, "message_text", lambda ui: [("class:message", words)])
    lines = controls.MessageControl(None).lines(80)  # type: ignore[arg-type]
    second = "".join(t for _, t, *_ in lines[1])
    assert len(lines) == 2 and second.endswith(" ...") and len(second) <= 80
    assert second.removesuffix(" ...").split()[-1] in words.split()
