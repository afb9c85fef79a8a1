"""Attacks of bench/abuse.py that take a LAN server's places (issue: a server nobody on
the LAN can take down); run them with ``bench/abuse.py --attack NAME``:

  connection-fill  every address of ``--addresses`` (give five) opens and holds as many
                   connections as the server lets it (``--spectators`` in all), opening
                   another whenever one is refused or closed
  bot-tables       every address creates tables with the server's bots (``"bots": 2``) as
                   fast as the server lets it, and holds them without ever acting

The probe of bench/abuse.py (a newcomer from 127.0.2.N joining a new table every
``--probe-interval`` s) says whether a newcomer still gets a connection and a table, and the
bots' round trip what the players at the running tables feel.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from tyros_client.session import Join, hello_message


async def connection_fill(plan: Any, started: Callable[[], None]) -> dict[str, Any]:
    from abuse import HandshakeRefused, RawWebSocket, describe, reply_kind

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
    from abuse import HandshakeRefused, RawWebSocket, describe, reply_kind, text_frame

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


LAN_ATTACKS = {"connection-fill": connection_fill, "bot-tables": bot_tables}
