"""Shared fixtures of the bot tests: checked offline games, seeded games over a real
server, and twin positions."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tyros_client.botclient import BotRun, play_bot
from tyros_client.bots import Bot
from tyros_rules import (
    GameState,
    Kind,
    Phase,
    event_view,
    legal_actions,
    push,
    seats_to_act,
    view,
)
from tyros_server.app import ServerConfig, TyrosServer

from tests.rules.builders import make_state

START = {"7": "o", "13": "y", "23": "g", "26": "v"}


async def play_over_server(
    tmp_path: Path,
    strategies: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], list[BotRun]]:
    """One seeded game of ``tyros-bot`` clients on a loopback server: every bot's final
    score sheet, and the runs (their counters)."""
    server = TyrosServer(
        ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "t.db"), allow_seed=True)
    )
    await server.start()
    try:
        url = f"ws://127.0.0.1:{server.port}"
        runs = [
            BotRun(
                url,
                "smoke",
                f"bot{i}",
                strategy,
                players=len(strategies),
                seed=seed,
                options=dict(options or {}),
            )
            for i, strategy in enumerate(strategies)
        ]
        scores: list[dict[str, Any]] = await asyncio.wait_for(
            asyncio.gather(*(play_bot(run, random.Random(i)) for i, run in enumerate(runs))),
            timeout=120,
        )
    finally:
        await server.stop()
    return scores, runs


def twin_positions() -> tuple[GameState, GameState]:
    """Two positions that differ only in what seat 0 cannot see (others' hands and tiles,
    the piles): a bot deciding from its view alone must treat them alike."""
    ships = {"TY": {0: 1, 1: 2, 2: 2, 3: 2}, "23": {0: 1}}
    mine = ["1", "2", "3", "4"]
    first = make_state(
        4,
        chips=START,
        ships=ships,
        seed=1,
        hands={0: "g g g o v w", 1: "o o o", 2: "y y", 3: "v"},
        tiles={0: mine, 1: ["5", "6"], 2: ["8", "9"], 3: ["10", "11"]},
    )
    second = make_state(
        4,
        chips=START,
        ships=ships,
        seed=2,
        hands={0: "g g g o v w", 1: "y v w", 2: "o g", 3: "g"},
        tiles={0: mine, 1: ["12", "14"], 2: ["15", "16"], 3: ["17", "18"]},
    )
    return first, second


def play_checked(
    state: GameState, bots: list[Bot], counted: Callable[[int], bool] = lambda seat: True
) -> Counter[tuple[int, ...]]:
    """Play ``state`` to its end with one bot per seat, each shown only its seat's view and
    events, every action checked by ``push``. Returns the decisions the ``counted`` seats
    took, by kind (answers by kind and whether they accepted)."""
    assert state.log is not None
    kinds: Counter[tuple[int, ...]] = Counter()
    seen = 0
    while state.phase != Phase.OVER:
        for event in state.log[seen:]:
            for bot in bots:
                shown = event_view(event, bot.seat)
                if shown is not None:
                    bot.observe(shown)
        seen = len(state.log)
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        action = bots[seat].choose(view(state, seat), legal)
        assert action in legal or action[0] in (Kind.PROPOSE, Kind.COUNTER)
        push(state, seat, action)  # raises if illegal (built offers and counters are checked here)
        if counted(seat):
            kinds[(action[0], action[1]) if action[0] == Kind.ANSWER else (action[0],)] += 1
    return kinds
