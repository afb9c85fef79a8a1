"""Decisions in worker processes (pool.py): a table's jobs stay with one process, a new
table goes to the one serving the fewest, the policy is the process's own, and a server
with a pool plays its bots' seats."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from tyros_rules import Options, legal_actions, new_game, view
from tyros_rules.legal import seats_to_act
from tyros_server.deputies import Advice, Decision, Farewell, RandomPlayer, SeatBots
from tyros_server.pool import DecisionPool
from tyros_server.session import Limits

from .conftest import STEP_TIMEOUT, RawClient, ServerFactory, url_of

OpenClient = Callable[..., Awaitable[RawClient]]


def test_a_tables_jobs_stay_with_its_process_and_a_new_table_goes_to_the_least_busy() -> None:
    state = new_game(Options(players=3, seed=4))
    seat = seats_to_act(state)[0]
    legal = legal_actions(state, seat)
    here = SeatBots(RandomPlayer)  # (the server's own: never sent to a process)
    pool = DecisionPool.of_strategy("random", processes=2)
    try:

        def decision(table: str) -> Decision:
            return Decision(table, seat, state.version, "seat", view(state, seat), legal, here)

        first = pool.submit(decision("a"))
        second = pool.submit(decision("b"))
        assert pool.served["a"] is not pool.served["b"]
        again = pool.submit(decision("a"))
        advice = Advice(7, 1, "a", seat, state.version, view(state, seat), legal, here)
        hint = pool.submit(advice)
        for future in (first, second, again, hint):
            assert future.result(STEP_TIMEOUT * 6) in legal  # (a process's first start)
        assert not here.players  # the choices were the processes' policies'
        served_a = pool.served["a"]
        pool.submit(Farewell("a", here)).result(STEP_TIMEOUT)
        assert "a" not in pool.served and served_a.tables == 0
        pool.submit(decision("c"))  # the least busy now: the one that served "a"
        assert pool.served["c"] is served_a
    finally:
        pool.shutdown()


async def test_a_server_with_decision_processes_plays_its_bots_seats(
    make_server: ServerFactory, open_client: OpenClient
) -> None:
    server = await make_server(
        takeover=SeatBots(RandomPlayer),  # (the session's: the processes make their own)
        decision_processes=2,
        takeover_strategy="random",
        limits=Limits(bot_pace_seconds=0),
    )
    client = await open_client(url_of(server))
    welcome = await client.hello("pool", "Pat", players=3, bots=2, seed=3)
    assert welcome["type"] == "welcome", welcome
    rng, version = random.Random(3), 0
    while version < 40:  # the bots' seats move the game on between the person's turns
        message: dict[str, Any] = await client.recv_until(
            lambda m: m["type"] == "update", STEP_TIMEOUT * 6
        )
        version = message["view"]["version"]
        prompt = message.get("prompt")
        if prompt:
            action = rng.choice(prompt["legal"])
            await client.send({"type": "action", "version": prompt["version"], "action": action})
    db = sqlite3.connect(server.config.db)  # (what was committed, as another reader sees it)
    try:
        seats = dict(db.execute("SELECT seat, count(*) FROM actions GROUP BY seat").fetchall())
    finally:
        db.close()
    assert seats.get(1, 0) > 0 and seats.get(2, 0) > 0, seats  # the bots' seats played


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting to be reaped has)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] == "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_decision_process_ends_when_its_server_is_killed_outright() -> None:
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, time; from tyros_server.pool import DecisionPool; "
            "pool = DecisionPool.of_strategy('random', 1); "
            "print(pool.processes[0].executor.submit(os.getpid).result(), flush=True); "
            "time.sleep(600)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert not gone(worker)
    finally:
        server.kill()  # SIGKILL: the server's own code never runs
        server.wait()
    for _ in range(400):  # until it has looked (once a second) and ended
        if gone(worker):
            break
        time.sleep(0.05)
    assert gone(worker)
