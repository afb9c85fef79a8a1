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
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tyros_protocol.board import BOARD
from tyros_protocol.messages import Prompt
from tyros_rules import MAX_SEATS, action_to_json, parse_action
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidURI

from .bots import make_bot, strategies
from .bots.base import Bot
from .bots.levels import add_level_options, chosen
from .bots.manners import waits_for_people
from .command_line import add_table_options, parse_address
from .connection import Connection, lost_words
from .notices import Joined, JoinRefused, Notice, Refused, TableChanged, Updated
from .paths import data_dir
from .scoresheet import format_score_sheet
from .session import ClientSession, Join, still_legal
from .tls import ServerTrust, add_trust_options, trust_from_options
from .tokens import TokenStore
from .words import LETTERS

log = logging.getLogger("tyros.bot")

RECONNECT_SECONDS = 90.0
"""A bot gives up when it could not reach the server for this long."""


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
    people: frozenset[int] | None = None
    """The seats people play (neither a program nor a bot for an absent player), as the
    table says; None until it has (every other seat counts as a person)."""
    score: dict[str, Any] | None = None
    actions_sent: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    """The error codes the server sent this bot, counted (normal play sees ``too_late``)."""
    trust: ServerTrust | None = None
    """How to trust a ``wss://`` server (one for all the bots of a server)."""
    tokens: TokenStore | None = None
    """Where the seat token is kept, so that a restarted bot takes its seat back."""

    @property
    def key(self) -> str:
        """The seat's key in :attr:`tokens` (the server, the table, the name)."""
        return f"{self.url} {self.table} {self.name}"


async def play_bot(run: BotRun, rng: random.Random) -> dict[str, Any]:
    """Play one seat to the end of the game; returns the final score sheet."""
    if run.token is None and run.tokens is not None:
        run.token = run.tokens.load(run.key)  # a seat this bot had before it was stopped
    join = Join(
        table=run.table,
        name=run.name,
        players=run.players,
        setup=run.setup,
        seed=run.seed,
        program=True,
    )
    session = ClientSession(join, token=run.token, give_up_after=RECONNECT_SECONDS)
    player = _BotPlayer(run, rng, session)
    connection = Connection(
        session,
        run.url,
        player.handle,
        connector=connect,
        on_status=player.status,
        trust=run.trust,
    )
    player.connection = connection
    await connection.run()
    if player.thinking is not None:  # a thought still running in its thread
        await asyncio.gather(player.thinking, return_exceptions=True)
    if run.score is not None:
        return run.score
    raise BotGiveUp(f"{run.name}: {session.fatal or 'the connection ended'}")


class _BotPlayer:
    """What a bot does with the messages its session passes on.

    The bot thinks in a worker thread, so that a search bot's second of thought does not
    stop the event loop (in ``tyros-play`` the screen and the server share it); updates
    that arrive meanwhile wait, in order, for the next turn of thought.
    """

    def __init__(self, run: BotRun, rng: random.Random, session: ClientSession) -> None:
        self.run, self.rng, self.session = run, rng, session
        self.bot: Bot | None = None
        self.connection: Connection | None = None
        self._waiting: list[tuple[Updated, bool]] = []
        """Updates to think about, in order, and whether their events are still to be shown
        to the bot (not when an update is thought about again)."""
        self._observed = False
        """(Worker thread.) Whether the bot has been shown events."""
        self.thinking: asyncio.Task[None] | None = None
        self._acted = -1
        """The id of the newest prompt acted on (a prompt is answered once)."""
        self._retried = -1
        """The id of the newest prompt thought about again after a refusal (once only)."""
        self._latest: Updated | None = None
        self._offered: set[tuple[int, str]] = set()
        """(round, offer) of every trade this bot proposed: none is made twice in a round."""

    def handle(self, notice: Notice) -> None:
        run = self.run
        if isinstance(notice, Joined):
            run.token, run.seat = notice.token, notice.seat
            if run.tokens is not None and run.token:
                run.tokens.save(run.key, run.token, run.seat)
            if self.bot is None and run.seat is not None:
                self.bot = make_bot(run.strategy, run.seat, self.rng, **run.options)
                self._tell_people()
                log.info(
                    "%s (%s) takes seat %s at table %s",
                    run.name,
                    run.strategy,
                    LETTERS[run.seat],
                    notice.table,
                )
            self._acted = -1  # an action sent before a crash may not have landed
        elif isinstance(notice, TableChanged):
            run.names = [s.name for s in notice.info.seats]
            run.people = frozenset(
                s.seat for s in notice.info.seats if s.name and not s.program and not s.bot
            )
            self._tell_people()
        elif isinstance(notice, Refused | JoinRefused):
            error = notice.error
            run.errors[error.code.value] += 1
            # Refusals of a join end the session (it says why); others are normal in
            # trades (the next update prompts again).
            log.debug("%s: server error %s: %s", run.name, error.code.value, error.message)
            latest = self._latest
            if latest is not None and latest.prompt and self.bot is not None:
                prompt = prompt_id(latest.prompt)
                if self._acted == prompt and self._retried != prompt:
                    # Our action for this prompt was refused, and the prompt stays: think
                    # once more rather than wait for a prompt that will not change.
                    self._retried, self._acted = prompt, -1
                    self._waiting.append((latest, False))
                    self._think_soon()
        elif isinstance(notice, Updated) and self.bot is not None:
            if notice.view.phase == "over":
                run.score = None if notice.view.score is None else notice.view.score.wire()
                if self.connection is not None:
                    self.connection.stop()
                return
            self._latest = notice
            self._waiting.append((notice, True))
            self._think_soon()

    def _tell_people(self) -> None:
        """Give the bot's manners the table's people (until the table says, every other
        seat counts as one)."""
        run, bot = self.run, self.bot
        if bot is not None and run.seat is not None:
            people = frozenset(range(MAX_SEATS)) if run.people is None else run.people
            bot.manners.people = people - {run.seat}

    def _think_soon(self) -> None:
        if self.thinking is None or self.thinking.done():
            self.thinking = asyncio.ensure_future(self._think())

    async def _think(self) -> None:
        bot = self.bot
        assert bot is not None
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                action, _ = await asyncio.to_thread(self._decide, bot, batch)
            except Exception as exc:  # a failing bot must say so, not leave its seat waiting
                log.exception("%s: the bot failed", self.run.name)
                self.session.give_up(f"the bot failed: {exc!r}")
                if self.connection is not None:
                    self.connection.flush()
                return
            prompt = self.session.prompt
            if action is None or prompt is None or not still_legal(action, prompt):
                continue  # the game moved on while the bot thought: think again
            if self.session.send_action(action):
                self._acted = prompt_id(prompt)  # the prompt it went out for
                self.run.actions_sent += 1
                if self.connection is not None:
                    self.connection.flush()

    def _decide(
        self, bot: Bot, batch: list[tuple[Updated, bool]]
    ) -> tuple[dict[str, Any] | None, int]:
        """(In the worker thread.) Observe every update's new events, answer the newest
        prompt."""
        for notice, new in batch:
            if new and bot.wants_events:
                if notice.restart and self._observed:
                    bot.forget()  # nothing tells old events from new: learn them again
                for event in notice.events:
                    bot.observe(event.wire())
                self._observed = self._observed or bool(notice.events)
        newest = batch[-1][0] if batch else None
        if newest is None or not newest.prompt:
            return None, -1
        version = prompt_id(newest.prompt)
        if version <= self._acted:
            return None, -1
        game_round = newest.view.round
        offered = {o for r, o in self._offered if r == game_round}
        game = newest.view.wire()
        legal = [entry.wire() for entry in newest.prompt.legal]
        action = _choose(bot, self.run, game, legal, offered)
        if action is not None and action.get("kind") == "propose":
            self._offered.add((game_round, _offer_key(action)))
        return action, version

    def status(self, status: str, detail: str) -> None:
        if status == "lost":
            log.info("%s: connection lost (%s); reconnecting", self.run.name, lost_words(detail))
        elif status == "notice":
            log.warning("%s: %s", self.run.name, detail)


def _offer_key(action: dict[str, Any]) -> str:
    return json.dumps(
        [
            sorted(action.get("to", [])),
            sorted(action.get("give", [])),
            sorted(action.get("get", [])),
        ]
    )


def _choose(
    bot: Bot,
    run: BotRun,
    game: dict[str, Any],
    entries: list[dict[str, Any]],
    offered: set[str] | None = None,
) -> dict[str, Any] | None:
    """The bot's answer to a prompt's legal ``entries`` in the view ``game`` (an action as
    JSON, as they are), or None: wait.

    Table manners hold for every strategy (see :mod:`.bots.manners`): a proposer waits
    for every person it asked until they answer (or the table's time to answer runs out,
    and the server declines for them), and for the programs it asked while it could only
    withdraw; it never withdraws an offer that somebody accepted (it completes with one of
    them, the bot choosing which); and it does not make an offer again in the round it
    made it (``offered``: the table has answered it).
    """
    kinds = {entry["kind"] for entry in entries}
    if waits_for_people(game, run.seat or 0, run.people) or (
        kinds == {"withdraw"} and waits_for_people(game, run.seat or 0, None, anyone=True)
    ):
        return None  # the next update (an answer, or the time running out) asks again
    if "complete" in kinds:
        entries = [entry for entry in entries if entry["kind"] == "complete"]
    legal = [parse_action(entry, BOARD) for entry in entries]
    action = action_to_json(bot.choose(game, legal), BOARD)
    if action["kind"] == "propose" and offered and _offer_key(action) in offered:
        others = [a for a, entry in zip(legal, entries, strict=True) if entry["kind"] != "propose"]
        if others:
            action = action_to_json(bot.choose(game, others), BOARD)
    return action


async def run_bots(runs: list[BotRun], seed: int | None) -> dict[str, Any]:
    rng = random.Random(seed)
    tasks = [asyncio.create_task(play_bot(run, random.Random(rng.random()))) for run in runs]
    scores = await asyncio.gather(*tasks)
    return scores[0]


async def fill_seats(
    make_run: Callable[[int], BotRun], seed: int | None
) -> tuple[list[BotRun], dict[str, Any]]:
    """Bots for every empty seat of the table (``tyros-bot`` without ``--count``): the
    bots that sat there before take their seats back (their tokens are kept), then new
    ones fill the seats still empty; a table these bots create keeps one seat free, for
    the player who asked for them."""
    rng = random.Random(seed)
    runs: list[BotRun] = []
    tasks: list[asyncio.Task[dict[str, Any]]] = []

    def start(run: BotRun) -> None:
        runs.append(run)
        tasks.append(asyncio.create_task(play_bot(run, random.Random(rng.random()))))

    async def seated(run: BotRun, task: asyncio.Task[dict[str, Any]]) -> None:
        while (run.seat is None or not run.names) and not task.done():
            await asyncio.sleep(0.05)
        if task.done():
            task.result()  # (raises why it could not sit)

    candidates = _free_runs(make_run, MAX_SEATS)
    for run in candidates:
        if run.tokens is not None and run.tokens.load(run.key) is not None:
            start(run)  # this command ran before: the seat is its own
    try:
        fresh = (run for run in candidates if run not in runs)
        if not runs:
            start(next(fresh))
        await seated(runs[0], tasks[0])
        names = runs[0].names
        empty = names.count(None)
        if sum(name is not None for name in names) == 1 and len(runs) == 1:
            empty -= 1  # it created the table: the seat left is the player's
            log.info(
                "one seat of table %s is left for you: tyros-client %s --table %s",
                runs[0].table,
                runs[0].url,
                runs[0].table,
            )
        for _ in range(max(0, empty)):
            start(next(fresh))
            await seated(runs[-1], tasks[-1])
        scores = await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
    return runs, scores[0]


def _free_runs(make_run: Callable[[int], BotRun], count: int) -> list[BotRun]:
    """``count`` bots whose names no other running ``tyros-bot`` plays a seat with (their
    tokens are not taken from it: see ``TokenStore.exclusive``)."""
    runs: list[BotRun] = []
    for i in itertools.count():
        run = make_run(i)
        if run.tokens is None or not run.tokens.held_elsewhere(run.key):
            runs.append(run)
        if len(runs) == count:
            return runs
    raise AssertionError("unreachable")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tyros-bot", description="Fill seats of a Tyros table with bots."
    )
    parser.add_argument(
        "address", type=parse_address, help="HOST:PORT (ws://) or wss://HOST:PORT of a tyros-server"
    )
    parser.add_argument(
        "--count",
        type=int,
        default=None,
        help="how many bots to seat (default: every empty seat; at a table the bots "
        "create, all but one, for you)",
    )
    add_table_options(parser)
    add_level_options(parser, list(strategies()))
    parser.add_argument("--name", default="bot", help="name prefix for the bots")
    parser.add_argument("--seed", type=int, default=None, help="seed for the bots' choices")
    parser.add_argument(
        "--table-seed",
        type=int,
        default=None,
        help="seed of the game, if the table is created (only a server started with "
        "--allow-seed takes one)",
    )
    parser.add_argument(
        "--move-time", type=float, default=None, help="seconds per decision for search bots"
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="iterations per decision for search bots"
    )
    parser.add_argument(
        "--answer-iterations",
        type=int,
        default=None,
        help="iterations for an answer to an offer, for search bots (with --iterations alone, "
        "answers search that budget too)",
    )
    parser.add_argument("--quiet", action="store_true", help="log only warnings and errors")
    parser.add_argument(
        "--forget",
        action="store_true",
        help="do not keep the seat tokens (a bot started again then joins afresh)",
    )
    add_trust_options(parser)
    args = parser.parse_args(argv)
    trust = trust_from_options(parser, args)
    logging.basicConfig(
        level=logging.WARNING if args.quiet else logging.INFO,
        format="%(asctime)s %(name)s: %(message)s",
    )
    # A bot stopped and started again (the same command) takes its seat back.
    tokens = None if args.forget else TokenStore(data_dir() / "bot-tokens.json", exclusive=True)
    strategy, options = chosen(args)
    if args.iterations is not None:  # exactly this budget, unless a time is given too
        options.pop("move_time", None)
        options.pop("answer_iterations", None)  # (answers too)
        options["iterations"] = args.iterations
    if args.answer_iterations is not None:
        options["answer_iterations"] = args.answer_iterations
    if args.move_time is not None:
        options["move_time"] = args.move_time
    try:  # a budget the strategy refuses is said now, not after the bot has joined a table
        make_bot(strategy, 0, random.Random(0), **options)
    except ValueError as exc:
        parser.error(str(exc))

    def make_run(i: int) -> BotRun:
        return BotRun(
            args.address,
            args.table,
            f"{args.name}-{i + 1}",
            strategy,
            args.players,
            args.setup,
            args.table_seed,
            options,
            trust=trust,
            tokens=tokens,
        )

    try:
        if args.count is None:
            runs, score = asyncio.run(fill_seats(make_run, args.seed))
        else:
            runs = _free_runs(make_run, args.count)
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


def prompt_id(prompt: Prompt) -> int:
    """A prompt's id: the version it was first issued at (it stays while other seats act
    and what this seat may do is unchanged); a server from before ids gave only a version.

    >>> read = Prompt.model_validate_json
    >>> prompt_id(read('{"id": 3, "version": 5, "legal": []}'))
    3
    >>> prompt_id(read('{"version": 5, "legal": []}'))
    5
    """
    return prompt.id if "id" in prompt.model_fields_set else prompt.version


if __name__ == "__main__":
    raise SystemExit(main())
