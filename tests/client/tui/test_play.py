"""``tyros-play`` (a local server, bots and the client in one process) and the command lines."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from tyros_client import play as play_module
from tyros_client.bots.levels import LEVELS
from tyros_client.tui import main as main_module
from tyros_client.tui.app import TyrosApp

from tests.client.tui.harness import TIMEOUT, Terminal, on_screen, until


async def run_play(argv: list[str], check: Any) -> tuple[TyrosApp, dict[str, Any] | None]:
    """Run ``tyros-play`` until ``check(ui)`` holds, then quit with Ctrl-C."""
    args = play_module.parse_args(argv)
    with create_pipe_input() as keys, create_app_session(input=keys, output=Terminal()):
        ready: asyncio.Future[TyrosApp] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(play_module.play(args, colour=False, ready=ready))
        try:
            ui = await asyncio.wait_for(ready, TIMEOUT)
            await check(ui)
        finally:
            keys.send_text("\x03")  # Ctrl-C quits, whatever has the focus
            score = await asyncio.wait_for(task, TIMEOUT)
    return ui, score


async def test_tyros_play_runs_a_local_game_and_takes_it_up_again(tmp_path: Path) -> None:
    argv = [
        "--bots",
        "2",
        "--seed",
        "3",
        "--data",
        str(tmp_path),
        "--name",
        "Ann",
        "--level",
        "easy",
    ]

    async def started(ui: TyrosApp) -> None:
        await until(lambda: ui.state.view is not None, "the game to start")
        assert ui.state.seat == 0
        assert ui.state.names == ["Ann", "bot-1", "bot-2"]
        assert ui.state.table.startswith("local-")
        await until(lambda: ui.state.prompt, "a prompt for the player")
        await until(lambda: (tmp_path / "play.json").exists(), "the seats to be saved")
        text = await on_screen(ui, "C bot-2")
        assert re.search(r"C bot-2 +\d+ .* bot\b", text), text  # flagged as a bot
        assert ui.state.orders.confirm  # asked before costly actions in a first game
        ui.run_line("set confirm off")
        await on_screen(ui, "confirm is off")

    first, score = await run_play(argv, started)
    assert score is None  # the game did not end
    assert (tmp_path / "play.db").exists()
    saved = json.loads((tmp_path / "play.json").read_text())
    assert saved["table"] == first.state.table and len(saved["bots"]) == 2
    assert (saved["strategy"], saved["level"]) == ("greedy", "easy")
    version = first.state.version

    async def resumed(ui: TyrosApp) -> None:
        await until(lambda: ui.state.view is not None, "the game to come back")
        assert ui.state.table == first.state.table and ui.state.seat == 0
        said = [line.text for line in ui.state.log]
        assert any("your unfinished game is taken up where you left it" in s for s in said)
        assert any("'tyros-play --new' starts another" in s for s in said)
        assert ui.state.version >= version
        assert not ui.state.orders.confirm  # as the player left it
        await until(
            lambda: all(ui.state.seat_status(seat).connected for seat in range(3)),
            "every seat back",
        )

    await run_play(argv, resumed)

    async def fresh(ui: TyrosApp) -> None:
        await until(lambda: ui.state.view is not None, "a new game")
        assert ui.state.table != first.state.table

    await run_play([*argv, "--new"], fresh)


def test_play_arguments() -> None:
    args = play_module.parse_args([])
    assert (args.bots, args.level, args.strategy, args.setup) == (3, "normal", None, "first")
    assert LEVELS["hard"].strategy == "ismcts"
    for level in ("easy", "normal", "hard"):
        assert play_module.parse_args(["--level", level]).level == level
    assert play_module.parse_args(["--strategy", "random"]).strategy == "random"
    with pytest.raises(SystemExit):
        play_module.parse_args(["--level", "godlike"])
    with pytest.raises(SystemExit):
        play_module.parse_args(["--bots", "4"])
    with pytest.raises(SystemExit):
        play_module.parse_args(["--strategy", "nobody"])


def test_client_arguments() -> None:
    args = main_module.parse_args(
        [
            "localhost:8765",
            "--name",
            "Ann",
            "--table",
            "friday",
            "--players",
            "3",
            "--setup",
            "variable",
            "--spectate",
        ]
    )
    assert args.address == "ws://localhost:8765"
    assert (args.name, args.table, args.players, args.setup, args.spectate) == (
        "Ann",
        "friday",
        3,
        "variable",
        True,
    )
    for bad in (
        ["nowhere"],
        ["h:1", "--table", "no spaces"],
        ["h:1", "--players", "5"],
        ["h:1", "--name", ""],
    ):
        with pytest.raises(SystemExit):
            main_module.parse_args(bad)
    assert main_module.default_name()


def test_tyros_play_keeps_its_finished_games_for_a_replay_and_a_review(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import random

    from tyros_server.session import Limits

    from tests.server.harness import Harness, first

    harness = Harness(tmp_path / "play.db", limits=Limits(tables_per_minute=10))
    try:
        for table, moves in (("local-1", None), ("local-2", 5)):
            conns = []
            for seat, name in enumerate(("bot-1", "Ann", "bot-2")):
                conn = harness.connect()
                out = harness.hello(conn, table, name, players=3, seed=seat + 1)
                assert first(out, conn, "welcome")["seat"] == seat
                conns.append(conn)
            rng = random.Random(1)
            played = 0
            while harness.state(table).phase.name != "OVER" and played != moves:
                harness.play_one(conns, rng)
                played += 1
    finally:
        harness.close()
    args = play_module.parse_args(["--data", str(tmp_path), "--replay"])
    ui = play_module.look_back_screen(args, tmp_path)
    assert ui.replay is not None and ui.replay.viewer == 1  # the player, not a bot
    assert ui.replay.replay.names == ["bot-1", "Ann", "bot-2"]
    assert play_module.parse_args(["--review"]).review == 1
    assert play_module.parse_args(["--replay", "3"]).replay == 3
    # Only finished games are kept for looking back; asking further back says so.
    assert play_module.main(["--data", str(tmp_path), "--replay", "2"]) == 1
    assert "no game 2 back: 1 finished game kept in" in capsys.readouterr().err
