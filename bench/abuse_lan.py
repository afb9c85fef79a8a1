"""Attacks of bench/abuse.py that take a LAN server's places (issue: a server nobody on
the LAN can take down); run them with ``bench/abuse.py --attack NAME``:

  connection-fill  every address of ``--addresses`` (give five) opens and holds as many
                   connections as the server lets it (``--spectators`` in all), opening
                   another whenever one is refused or closed
  bot-tables       every address creates tables with the server's bots (``"bots": 2``) as
                   fast as the server lets it, and holds them without ever acting
  record-flood     ``--record-connections`` connections from the first address, each asking
                   for the public record of one of ``--record-games`` finished games (written
                   into the database before the server starts: games that are not in its
                   memory) once a second, the most one connection was allowed
  http-edges       ``bench/abuse_http.py``'s probes (an upgrade for a rebound name, Host or
                   Origin twice, methods other than GET and HEAD, duplicate JSON keys,
                   confusable names) over and over from four tasks at once

The probe of bench/abuse.py (a newcomer from 127.0.2.N joining a new table every
``--probe-interval`` s) says whether a newcomer still gets a connection and a table, and the
bots' round trip what the players at the running tables feel.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from raw_websocket import HandshakeRefused, RawWebSocket, describe, reply_kind, text_frame
from tyros_client.session import Join, hello_message


async def connection_fill(plan: Any, started: Callable[[], None]) -> dict[str, Any]:

    tally: Counter[str] = Counter()
    held: set[Any] = set()
    peak = 0
    deadline = time.monotonic() + plan.seconds
    gate = asyncio.Semaphore(plan.handshakes_at_once)
    started()

    async def holder(index: int) -> None:
        nonlocal peak
        address = plan.addresses[index % len(plan.addresses)]
        while time.monotonic() < deadline:
            try:
                async with gate:
                    ws = await RawWebSocket.open(plan.port, address)
            except (OSError, TimeoutError, HandshakeRefused, asyncio.IncompleteReadError) as exc:
                tally[f"failed: {describe(exc)}"] += 1
                await asyncio.sleep(0.5)
                continue
            held.add(ws)
            peak = max(peak, len(held))
            try:  # held until the server closes it (refused, or no hello in time)
                reply = await ws.first_text(max(0.01, deadline - time.monotonic()))
                tally[reply_kind(reply) if reply else f"closed ({ws.close_code})"] += 1
            except (OSError, TimeoutError, asyncio.IncompleteReadError):
                tally["held to the end"] += 1
            finally:
                held.discard(ws)
                await ws.close()
            await asyncio.sleep(0.2)

    await asyncio.gather(*(holder(i) for i in range(plan.spectators)))
    return {"connections_held_at_peak": peak, "outcomes": dict(tally)}


async def bot_tables(plan: Any, started: Callable[[], None]) -> dict[str, Any]:

    tally: Counter[str] = Counter()
    held: list[Any] = []
    deadline = time.monotonic() + plan.seconds
    started()

    async def creator(address: str, index: int) -> None:
        for n in itertools.count():
            if time.monotonic() >= deadline:
                return
            try:
                ws = await RawWebSocket.open(plan.port, address)
                join = Join(table=f"bots-{index}-{n}", name="holder", players=3, bots=2)
                await ws.send(text_frame(hello_message(join, 1)))
                reply = await ws.first_text(5.0)
            except (OSError, TimeoutError, HandshakeRefused, asyncio.IncompleteReadError) as exc:
                tally[f"failed: {describe(exc)}"] += 1
                await asyncio.sleep(0.5)
                continue
            kind = reply_kind(reply) if reply else f"closed ({ws.close_code})"
            tally[kind] += 1
            if kind == "welcome":
                held.append(ws)  # never acts: the table waits for it for ever
            else:
                await ws.close()
            await asyncio.sleep(0.5)

    await asyncio.gather(*(creator(a, i) for i, a in enumerate(plan.addresses)))
    for ws in held:
        await ws.close()
    return {"tables_held": tally.get("welcome", 0), "outcomes": dict(tally)}


def finished_games(db: Path, games: int, seed: int) -> None:
    """``games`` finished random 4-player games (tables ``done-0``, ...) written into a new
    database ``db`` as the server stores them, before it starts: the records the record
    flood asks for are of games it does not hold in memory."""
    from tyros_protocol.board import BOARD
    from tyros_rules import (
        RULES_VERSION,
        Options,
        action_to_json,
        legal_actions,
        new_game,
        push_unchecked,
    )
    from tyros_rules.legal import seats_to_act
    from tyros_server.storage import Store, token_digest

    store = Store(str(db))
    try:
        for game in range(games):
            name, rng = f"done-{game}", random.Random(seed + game)
            options = Options(players=4, seed=seed + game)
            store.create_table(name, options.to_json(), 60, time.time(), "0" * 32, RULES_VERSION)
            for seat in range(4):
                store.add_seat(name, seat, f"p{seat}", token_digest(f"{name}/{seat}"))
            state = new_game(options)
            with store.deferred(store.commit):  # (one transaction a game)
                while state.phase.name != "OVER":
                    seat = seats_to_act(state)[0]
                    action = rng.choice(legal_actions(state, seat))
                    push_unchecked(state, seat, action)
                    json_action = action_to_json(action, BOARD)
                    store.append_action(name, state.version, seat, json_action, state.digest())
                store.mark_finished(name)
                store.commit()
    finally:
        store.close()


async def record_flood(plan: Any, started: Callable[[], None]) -> dict[str, Any]:

    tally: Counter[str] = Counter()
    deadline = time.monotonic() + plan.seconds
    started()

    async def asker(index: int) -> None:
        rng = random.Random(index)
        try:
            ws = await RawWebSocket.open(plan.port, plan.addresses[0])
        except (OSError, TimeoutError, HandshakeRefused, asyncio.IncompleteReadError) as exc:
            tally[f"failed: {describe(exc)}"] += 1
            return
        try:
            for n in itertools.count(1):
                asked = time.monotonic()
                if asked >= deadline:
                    return
                table = f"done-{rng.randrange(plan.record_games)}"
                ask = {"type": "get_record", "id": n, "table": table, "public": True}
                await ws.send(text_frame(ask))
                reply = await ws.first_text(max(0.01, deadline + 5 - asked))
                if reply is None:
                    tally[f"closed ({ws.close_code})"] += 1
                    return
                tally[reply_kind(reply)] += 1
                await asyncio.sleep(max(0.0, asked + 1.0 - time.monotonic()))
        except (OSError, TimeoutError, asyncio.IncompleteReadError) as exc:
            tally[f"failed: {describe(exc)}"] += 1
        finally:
            await ws.close()

    await asyncio.gather(*(asker(i) for i in range(plan.record_connections)))
    return {"records_sent": tally.get("record", 0), "outcomes": dict(tally)}


async def http_edges(plan: Any, started: Callable[[], None]) -> dict[str, Any]:
    """``abuse_http.py``'s probes of the HTTP and input edges (points 6-9), over and over
    from four tasks at once (on the attack's addresses in turn): the answers counted, while
    the bots play."""
    from abuse_http import PROBES

    tally: Counter[str] = Counter()
    deadline = time.monotonic() + plan.seconds
    started()

    async def prober(source: str) -> None:
        while time.monotonic() < deadline:
            for name, probe in PROBES.items():
                try:
                    for asked, answer in (await probe(plan.port, source)).items():
                        tally[f"{asked}: {answer}"] += 1
                except Exception as exc:  # (counted: what failed, and how)
                    tally[f"{name} failed: {describe(exc)}"] += 1

    sources = [plan.addresses[n % len(plan.addresses)] for n in range(4)]
    await asyncio.gather(*(prober(source) for source in sources))
    return {"outcomes": dict(tally)}


LAN_ATTACKS = {
    "connection-fill": connection_fill,
    "bot-tables": bot_tables,
    "record-flood": record_flood,
    "http-edges": http_edges,
}
