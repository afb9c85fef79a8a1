"""Trading with a person: how often bots offer the person at their table a trade, and how
often such an offer closes before the person could answer it.

    python bench/people.py                          # 2 games of each line-up
    python bench/people.py --lineups house,hard --games 4 --json

A server (``tyros-server``, loopback) seats one scripted person and three bots of one
line-up: ``easy``, ``normal`` or ``hard`` (``tyros-bot``'s bots at that level, over the
protocol, as ``tyros-play`` runs them) or ``house`` (the server's own bots, asked for in
the person's ``hello``; ``--bot-pace 0.2``). The person answers each offer put to them
after a delay drawn uniformly from 5-40 s (accepting half the offers it can pay), and
otherwise plays a random legal action that is not a trade offer, at once.

Time is scaled by ``--scale`` (default 0.1): the table gives 6 s to answer and the
person takes 0.5-4 s, as 60 s and 5-40 s would be at full scale. Table manners do not
depend on time (a proposer waits for the person's answer, or the time to answer running
out), so the scale changes only how long the bench takes.

Figures, per line-up: offers to the person per round, and the share of those offers that
closed (completed with another seat, or withdrawn) before the person answered while time
was left to answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import ServerProcess
from tyros_client.botclient import BotRun, play_bot
from tyros_client.bots.levels import LEVELS
from tyros_client.notices import Joined, Refused, Updated
from tyros_client.session import ClientSession, Join
from tyros_protocol.actions import ProposeAction
from tyros_protocol.events import ActionTaken, Event
from websockets.asyncio.client import connect

LINEUPS = ("easy", "normal", "hard", "house")
ANSWER_DELAY = (5.0, 40.0)
"""Seconds a person takes to answer an offer, at full scale."""
ANSWER_SECONDS = 60
"""The table's time to answer, at full scale (the server's default)."""


@dataclass
class Tally:
    """What the person saw of offers put to them, over one game."""

    rounds: int = 0
    offers: int = 0
    closed_early: int = 0
    """Offers completed with another seat or withdrawn while the person's answer was still
    to come and time was left."""
    answered: int = 0
    could_accept: int = 0
    """Offers the person held the cards for (the others it can only decline or counter)."""
    timed_out: int = 0
    refused: Counter[str] = field(default_factory=Counter)


class Person:
    """A scripted person: answers offers after a human delay, plays the rest at once."""

    def __init__(self, seat_rng: random.Random, scale: float) -> None:
        self.rng = seat_rng
        self.scale = scale
        self.tally = Tally()
        self.seat: int | None = None
        self.open: int | None = None
        """The version of the offer put to the person that is still open (None: none)."""
        self.due: tuple[float, int, dict[str, Any]] | None = None
        """(when, offer, answer) of the answer the person is about to give."""
        self.over = False

    def updated(self, notice: Updated, now: float) -> dict[str, Any] | None:
        """Take in an update; the action to send at once, if any."""
        game = notice.view
        self.tally.rounds = max(self.tally.rounds, game.round)
        for event in notice.events:
            self._event(event)
        if game.phase == "over":
            self.over = True
            return None
        if notice.prompt is None:
            return None
        legal = [entry.wire() for entry in notice.prompt.legal]
        kinds = {entry["kind"] for entry in legal}
        if "answer" in kinds:  # an offer to answer: after a while
            if self.open is not None and (self.due is None or self.due[1] != self.open):
                low, high = ANSWER_DELAY
                accept = {"kind": "answer", "accept": True}
                self.tally.could_accept += accept in legal
                answer = (
                    accept
                    if accept in legal and self.rng.random() < 0.5
                    else {"kind": "answer", "accept": False}
                )
                delay = self.rng.uniform(low, high) * self.scale
                self.due = (now + delay, self.open, answer)
            return None
        plays = [entry for entry in legal if entry["kind"] not in ("propose", "counter")]
        play: dict[str, Any] = self.rng.choice(plays or legal)
        return play

    def _event(self, event: Event) -> None:
        if not isinstance(event, ActionTaken):
            return
        kind = event.action.kind
        if isinstance(event.action, ProposeAction) and self.seat in event.action.to:
            self.open = event.version
            self.tally.offers += 1
        elif self.open is not None and kind == "answer" and event.seat == self.seat:
            if event.by == "clock":
                self.tally.timed_out += 1
            self.open = None
        elif self.open is not None and kind in ("complete", "withdraw"):
            self.tally.closed_early += 1
            self.open = None


async def play_person(url: str, join: Join, person: Person) -> Tally:
    """The person's connection, until the game ends."""
    session = ClientSession(join)
    async with connect(url, compression=None, max_size=2**24) as ws:

        async def flush() -> None:
            for frame in session.frames_to_send():
                await ws.send(frame)

        session.connection_made()
        await flush()
        while not person.over:
            now = time.monotonic()
            wait = None if person.due is None else max(0.0, person.due[0] - now)
            try:
                frame = await asyncio.wait_for(ws.recv(), wait)
            except TimeoutError:
                assert person.due is not None
                _, offer, answer = person.due
                person.due = None
                if person.open == offer:
                    session.send_action(answer)
                    person.tally.answered += 1
                await flush()
                continue
            for notice in session.receive(frame):
                if isinstance(notice, Updated):
                    action = person.updated(notice, time.monotonic())
                    if action is not None:
                        session.send_action(action)
                elif isinstance(notice, Joined):
                    person.seat = notice.seat
                elif isinstance(notice, Refused):
                    person.tally.refused[notice.code.value] += 1
            await flush()
    return person.tally


async def one_game(url: str, lineup: str, game: int, scale: float) -> Tally:
    table = f"{lineup}-{game}"
    seconds = max(5, round(ANSWER_SECONDS * scale))
    house = lineup == "house"
    join = Join(
        table=table,
        name="Ann",
        players=4,
        seed=game + 1,
        trade_seconds=seconds,
        bots=3 if house else None,
    )
    person = Person(random.Random(game), scale)
    task = asyncio.create_task(play_person(url, join, person))
    bots: list[asyncio.Task[dict[str, Any]]] = []
    if not house:
        while person.seat is None:  # the person creates the table and sits first
            await asyncio.sleep(0.05)
        level = LEVELS[lineup]
        for i in range(3):
            run = BotRun(url, table, f"bot-{i + 1}", level.strategy, 4, options=level.options)
            bots.append(asyncio.create_task(play_bot(run, random.Random(game * 10 + i))))
    tally = await task
    await asyncio.gather(*bots, return_exceptions=True)
    return tally


def summary(tallies: list[Tally]) -> dict[str, Any]:
    rounds = sum(t.rounds for t in tallies)
    offers = sum(t.offers for t in tallies)
    early = sum(t.closed_early for t in tallies)
    return {
        "games": len(tallies),
        "rounds": rounds,
        "offers to the person": offers,
        "offers a round": round(offers / rounds, 2) if rounds else 0.0,
        "most offers in a game": max((t.offers for t in tallies), default=0),
        "closed before the answer": early,
        "share closed early": round(early / offers, 3) if offers else 0.0,
        "answered": sum(t.answered for t in tallies),
        "could accept": sum(t.could_accept for t in tallies),
        "timed out": sum(t.timed_out for t in tallies),
        "refused": dict(sum((t.refused for t in tallies), Counter())),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for lineup in args.lineups.split(","):
            server = ServerProcess(
                Path(tmp) / f"{lineup}.db", None, "--bot-pace", "0.2", "--takeover", "off"
            )
            server.start()
            try:
                started = time.monotonic()
                tallies = [
                    await one_game(server.url, lineup, game, args.scale)
                    for game in range(args.games)
                ]
                results[lineup] = {**summary(tallies), "seconds": round(time.monotonic() - started)}
            finally:
                server.stop()
            if not args.json:
                print(lineup, results[lineup], flush=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=2, help="games of each line-up")
    parser.add_argument("--lineups", default=",".join(LINEUPS), help="comma-separated")
    parser.add_argument("--scale", type=float, default=0.1, help="time scale (1: real time)")
    parser.add_argument(
        "--offers-bound",
        type=int,
        default=None,
        help="offers one bot may put to a person a round, for tyros-bot line-ups (default: "
        "the bots' own; to measure the bound)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.offers_bound is not None:
        from tyros_client.bots import manners

        manners.OFFERS_TO_A_PERSON = args.offers_bound
    results = asyncio.run(run(args))
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
