"""The JavaScript example bot of docs/examples plays a whole game against a real server and
takes its seat back after being killed (skipped where Node has no WebSocket)."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import pytest
from tyros_server.app import ServerConfig, TyrosServer

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "bot.mjs"
NODE = shutil.which("node")


def node_has_websocket() -> bool:
    if NODE is None:
        return False
    probe = subprocess.run(
        [
            NODE,
            "--experimental-websocket",
            "-e",
            "process.exit(typeof WebSocket === 'function' ? 0 : 1)",
        ],
        capture_output=True,
        timeout=30,
    )
    return probe.returncode == 0


pytestmark = pytest.mark.skipif(
    not node_has_websocket(),
    reason="needs Node.js with WebSocket (Node 20.10+ with --experimental-websocket, or 22+)",
)


async def start_bot(url: str, name: str, cwd: Path) -> asyncio.subprocess.Process:
    assert NODE is not None
    return await asyncio.create_subprocess_exec(
        NODE,
        "--no-warnings",
        "--experimental-websocket",
        str(EXAMPLE),
        url,
        "js",
        name,
        "3",
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_the_example_bot_plays_to_the_end_and_resumes_after_a_kill(tmp_path: Path) -> None:
    server = TyrosServer(ServerConfig(port=0, db=str(tmp_path / "js.db")))
    await server.start()
    url = f"ws://127.0.0.1:{server.port}"
    bots: dict[str, asyncio.subprocess.Process] = {}
    try:
        bots = {name: await start_bot(url, name, tmp_path) for name in ("ann", "bob", "cyd")}
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while True:  # until the game is under way
            table = server.session.tables.get("js")
            if table is not None and table.state is not None and table.state.version >= 20:
                break
            assert loop.time() < deadline, "the example bots did not start a game"
            await asyncio.sleep(0.05)
        bots["ann"].kill()
        await bots["ann"].wait()
        assert (tmp_path / "ann.token").read_text().strip()
        bots["ann"] = await start_bot(url, "ann", tmp_path)  # resumes with ann.token
        ends = {name: asyncio.ensure_future(bot.communicate()) for name, bot in bots.items()}
        await asyncio.wait(ends.values(), timeout=120)
        if not all(end.done() for end in ends.values()):
            table = server.session.tables["js"]
            state = table.state
            assert state is not None
            seats = [(slot.name, slot.conn is not None) for slot in table.seats]
            raise AssertionError(
                f"the game stalled at version {state.version}, phase {state.phase!r}, to act "
                f"{table.prompts}, seats {seats}, bots' exit codes "
                f"{ {name: bot.returncode for name, bot in bots.items()} }, finished output "
                f"{ {n: e.result() for n, e in ends.items() if e.done()} }"
            )
        outputs = {}
        for name, end in ends.items():
            out, err = end.result()
            assert bots[name].returncode == 0, (name, err.decode())
            outputs[name] = out.decode()
        assert all("game over: winners" in text for text in outputs.values()), outputs
        table = server.session.tables["js"]
        assert table.finished and sorted(seat.name for seat in table.seats) == ["ann", "bob", "cyd"]
    finally:
        for bot in bots.values():
            if bot.returncode is None:
                bot.kill()
        await server.stop()
