"""Bots as the terminal client's opponents: a human must get the time to answer their offers.

A bot that proposes a trade is prompted again at once, with only ``withdraw`` legal while
the asked seats have not answered. It must not withdraw then (the offer would flash and
vanish before a human could read it), but wait for the answers, or for the server to
decline for the seats whose ``trade_seconds`` ran out.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from tyros_client.botclient import BotRun, play_bot
from tyros_client.bots import base
from tyros_client.bots.base import Bot
from tyros_protocol import PROTOCOL_VERSION
from tyros_rules import Action, Kind
from tyros_server.app import ServerConfig, TyrosServer
from websockets.asyncio.client import connect

TRADE_SECONDS = 5
BOUND = 120
"""Seconds the whole test may take: a bound for a stuck test, never expected to be reached."""


class GiftBot(Bot):
    """Offers seat 0 one card for nothing, once; completes if it can; else the first choice."""

    name = "test-gift"
    offered = False

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        completes = [a for a in legal if a[0] == Kind.COMPLETE]
        if completes:
            return completes[0]
        if not GiftBot.offered and any(a[0] == Kind.PROPOSE for a in legal):
            hand = [["orange", "yellow", "green", "violet", "wild"].index(c) for c in view["hand"]]
            if hand:
                GiftBot.offered = True
                give = [0] * 5
                give[hand[0]] = 1
                return (Kind.PROPOSE, 1, *give, 0, 0, 0, 0, 0)
        for kind in (Kind.PASS, Kind.EXPAND, Kind.KEEP, Kind.GIVE_CARD, Kind.RETURN_TILE):
            for action in legal:
                if action[0] == kind:
                    return action
        return legal[0]


@pytest.fixture()
def gift_strategy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(base.strategies(), "test-gift", GiftBot)
    monkeypatch.setattr(GiftBot, "offered", False)


async def test_a_bot_waits_for_the_answer_to_its_offer(tmp_path: Path, gift_strategy: None) -> None:
    server = TyrosServer(
        ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "b.db"), allow_seed=True)
    )
    await server.start()
    url = f"ws://127.0.0.1:{server.port}"
    bots: list[asyncio.Task[Any]] = []
    try:
        async with connect(url) as human, asyncio.timeout(BOUND):
            await human.send(
                json.dumps(
                    {
                        "type": "hello",
                        "protocol": PROTOCOL_VERSION,
                        "name": "slow-human",
                        "table": "b1",
                        "players": 3,
                        "seed": 1,
                        "trade_seconds": TRADE_SECONDS,
                    }
                )
            )
            welcome = json.loads(await human.recv())
            assert (welcome["type"], welcome["seat"]) == ("welcome", 0), welcome
            for i in (1, 2):  # each bot seated before the next one says hello
                run = BotRun(url, "b1", f"bot-{i}", "test-gift", 3)
                bots.append(asyncio.create_task(play_bot(run, random.Random(i))))
                while run.seat is None:
                    assert not bots[-1].done(), bots[-1]
                    await asyncio.sleep(0.01)
            offered = False
            events: list[dict[str, Any]] = []
            async for frame in human:
                message = json.loads(frame)
                if message["type"] != "update":
                    continue
                events += message["events"]
                prompt = message.get("prompt") or {}
                kinds = {a["kind"] for a in prompt.get("legal", [])}
                if "answer" in kinds:
                    offered = True  # ... and the human takes its time: no answer
                elif prompt and not offered:
                    # Play along (pass, expand, keep) until the offer comes.
                    choice = next(
                        (a for a in prompt["legal"] if a["kind"] == "pass"), prompt["legal"][0]
                    )
                    await human.send(
                        json.dumps(
                            {"type": "action", "version": prompt["version"], "action": choice}
                        )
                    )
                if offered and any(
                    e.get("type") == "action" and e["action"]["kind"] in ("withdraw", "complete")
                    for e in events
                ):
                    break
        actions = [(e["seat"], e["action"]["kind"]) for e in events if e["type"] == "action"]
        proposed = next(i for i, (_, kind) in enumerate(actions) if kind == "propose")
        ended = next(
            i
            for i, (_, kind) in enumerate(actions[proposed:], proposed)
            if kind in ("withdraw", "complete")
        )
        answers = [seat for seat, kind in actions[proposed:ended] if kind == "answer"]
        assert 0 in answers, (
            "the bot withdrew its offer before seat 0 answered (or its time ran out): "
            f"{actions[proposed : ended + 1]}"
        )
    finally:
        for task in bots:
            task.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
        await server.stop()
