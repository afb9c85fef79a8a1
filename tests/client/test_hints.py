"""Hints: asked in the real screen at a live table, refused where the table has them off,
and marked in the record the server keeps."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from tyros_client.botclient import BotRun, play_bot
from tyros_client.tui.net import JoinOptions
from tyros_server.records import stored_record
from tyros_server.storage import Store

from tests.client.tui.harness import client, on_screen, seated, server, until


async def play_with_hints(tmp_path: Path, hints: bool | None) -> tuple[str, dict[str, Any]]:
    async with server(tmp_path) as running:
        url = f"ws://127.0.0.1:{running.port}"
        options = JoinOptions(players=3, seed=3, hints=hints)
        async with client(url, "hints", options=options, colour=False) as (ui, keys):
            await until(lambda: ui.state.seat == 0, "the first seat")
            runs = [BotRun(url, "hints", f"bot-{i}", "random", 3) for i in (1, 2)]
            bots = [asyncio.create_task(play_bot(r, random.Random(i))) for i, r in enumerate(runs)]
            async with seated(bots):
                await until(lambda: ui.state.prompt, "a prompt", 30)
                keys.send_text("hint\r")
                if hints is False:
                    text = await on_screen(ui, "hints are off at this table")
                else:
                    text = await on_screen(ui, "hint: 1.", 30)
                    version = ui.state.version
                    ui.send(ui.state.legal[0])  # the decision after the hint
                    await until(lambda: ui.state.version > version, "the decision", 30)
        store = Store(str(tmp_path / "t.db"), create=False)
        try:
            record = stored_record(store, "hints")
        finally:
            store.close()
        return text, record


async def test_a_hint_is_shown_and_the_decision_after_it_is_marked(tmp_path: Path) -> None:
    text, record = await play_with_hints(tmp_path, None)
    assert "(best)" in text
    assert record["hints"] is True
    assert [entry["seat"] for entry in record["hinted"]] == [0]
    marked = record["hinted"][0]
    action = [e for e in record["events"] if e.get("type") == "action"][marked["version"] - 1]
    assert action["seat"] == marked["seat"]


async def test_hints_are_refused_at_a_table_created_without_them(tmp_path: Path) -> None:
    text, record = await play_with_hints(tmp_path, False)
    assert "created without hints" in text or "hints are off" in text
    assert record["hints"] is False and record["hinted"] == []
