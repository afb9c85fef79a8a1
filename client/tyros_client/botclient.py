"""``tyros-bot HOST:PORT``: bots that join a table over the protocol and play it out.

Each bot is an ordinary client: it says hello (or resumes with its token),
acts on the prompts the server sends, and knows only what its seat is shown.
If the server goes away it reconnects with its token, backing off, for at
least :data:`RECONNECT_SECONDS`.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.board import BOARD
from tyros_server.engine import action_to_json, parse_action
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .bots import make_bot
from .bots.base import Bot
from .scoresheet import format_score_sheet

log = logging.getLogger("tyros.bot")

RECONNECT_SECONDS = 90.0
RATE_LIMIT_PAUSE = 0.25
MAX_FRAME = 8 * 1024 * 1024


class BotGiveUp(RuntimeError):
    """The bot cannot go on (table full, token refused, server gone for too long)."""


@dataclass
class BotRun:
    """One bot connection's settings and what it learned."""

    url: str
    table: str
    name: str
    strategy: str
    players: int = 4
    setup: str = "first"
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    token: str | None = None
    seat: int | None = None
    names: list[str | None] = field(default_factory=list)
    score: dict[str, Any] | None = None
    actions_sent: int = 0


async def play_bot(run: BotRun, rng: random.Random) -> dict[str, Any]:
    """Play one seat to the end of the game; returns the final score sheet."""
    bot: Bot | None = None
    ids = itertools.count(1)
    failing_since: float | None = None
    delay = 0.2
    while True:
        try:
            async with connect(run.url, max_size=MAX_FRAME, compression=None,
                               open_timeout=10) as ws:
                failing_since, delay = None, 0.2
                last_sent: str | None = None
                if run.token is None:
                    hello: dict[str, Any] = {"type": "hello", "id": next(ids),
                                             "protocol": PROTOCOL_VERSION, "name": run.name,
                                             "table": run.table, "players": run.players,
                                             "setup": run.setup}
                    if run.seed is not None:
                        hello["seed"] = run.seed
                    await ws.send(json.dumps(hello))
                else:
                    await ws.send(json.dumps({"type": "resume", "id": next(ids),
                                              "protocol": PROTOCOL_VERSION,
                                              "token": run.token}))
                async for frame in ws:
                    message = json.loads(frame)
                    kind = message.get("type")
                    if kind == "welcome":
                        run.token = message["token"] or run.token
                        run.seat = message["seat"]
                        if bot is None and run.seat is not None:
                            bot = make_bot(run.strategy, run.seat, rng, **run.options)
                        elif bot is not None:
                            bot.forget()  # a resumed seat is sent recent events again
                    elif kind == "table":
                        run.names = [s["name"] for s in message["table"]["seats"]]
                    elif kind == "error":
                        _check_fatal(message)
                        if message.get("code") == "rate_limited" and last_sent is not None:
                            await asyncio.sleep(RATE_LIMIT_PAUSE)
                            await ws.send(last_sent)
                    elif kind == "update" and bot is not None:
                        reply = _on_update(bot, run, message)
                        if run.score is not None:
                            return run.score
                        if reply is not None:
                            reply["id"] = next(ids)
                            run.actions_sent += 1
                            last_sent = json.dumps(reply)
                            await ws.send(last_sent)
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
            now = time.monotonic()
            failing_since = failing_since or now
            if now - failing_since > RECONNECT_SECONDS:
                raise BotGiveUp(f"{run.name}: server unreachable for too long ({exc})") from exc
            log.info("%s: connection lost (%s); retrying in %.1f s", run.name, exc, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)


def _check_fatal(message: dict[str, Any]) -> None:
    code = message.get("code")
    if code in ("table_full", "table_finished", "bad_token", "unsupported_protocol",
                "no_such_table"):
        raise BotGiveUp(f"server refused: {code}: {message.get('message')}")
    # Stale versions and the like are normal in trades: the next update prompts again.
    log.debug("server error %s: %s", code, message.get("message"))


def _on_update(bot: Bot, run: BotRun, message: dict[str, Any]) -> dict[str, Any] | None:
    if bot.wants_events:
        for event in message["events"]:
            bot.observe(event)
    game = message["view"]
    if game["phase"] == "over":
        run.score = game["score"]
        return None
    prompt = message.get("prompt")
    if not prompt:
        return None
    trade = game.get("trade")
    if (trade is not None and trade["proposer"] == run.seat
            and all(entry["kind"] == "withdraw" for entry in prompt["legal"])
            and any(answer["answer"] == "pending" for answer in trade["answers"])):
        return None  # let the asked seats answer (or their time run out) before giving up
    legal = [parse_action(entry, BOARD) for entry in prompt["legal"]]
    action = bot.choose(game, legal)
    return {"type": "action", "version": prompt["version"],
            "action": action_to_json(action, BOARD)}


def parse_address(text: str) -> str:
    """``HOST:PORT`` (or a ws:// URL) as a websocket URL.

    >>> parse_address("localhost:8765"), parse_address("ws://10.0.0.2:9000")
    ('ws://localhost:8765', 'ws://10.0.0.2:9000')
    """
    if text.startswith(("ws://", "wss://")):
        return text
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return f"ws://{host or 'localhost'}:{port}"


async def run_bots(runs: list[BotRun], seed: int | None) -> dict[str, Any]:
    rng = random.Random(seed)
    tasks = [asyncio.create_task(play_bot(run, random.Random(rng.random()))) for run in runs]
    scores = await asyncio.gather(*tasks)
    return scores[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tyros-bot",
                                     description="Fill seats of a Tyros table with bots.")
    parser.add_argument("address", type=parse_address, help="HOST:PORT of a tyros-server")
    parser.add_argument("--count", type=int, default=1, help="how many bots to seat")
    parser.add_argument("--table", default="table")
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--setup", choices=("first", "variable"), default="first")
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--name", default="bot", help="name prefix for the bots")
    parser.add_argument("--seed", type=int, default=None, help="seed for new tables and bots")
    parser.add_argument("--move-time", type=float, default=None,
                        help="seconds per decision for search bots")
    parser.add_argument("--iterations", type=int, default=None,
                        help="iterations per decision for search bots")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO,
                        format="%(asctime)s %(name)s: %(message)s")
    options: dict[str, Any] = {}
    if args.move_time is not None:
        options["move_time"] = args.move_time
    if args.iterations is not None:
        options["iterations"] = args.iterations
    runs = [BotRun(args.address, args.table, f"{args.name}-{i + 1}", args.strategy,
                   args.players, args.setup, args.seed, options) for i in range(args.count)]
    try:
        score = asyncio.run(run_bots(runs, args.seed))
    except BotGiveUp as exc:
        print(f"tyros-bot: {exc}", file=sys.stderr)
        return 1
    except InvalidURI as exc:
        print(f"tyros-bot: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    names = runs[0].names or [None] * args.players
    print(format_score_sheet(score, names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
