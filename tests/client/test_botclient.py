"""``tyros-bot``'s client loop: a bot that loses its server resumes its seat, and forgets
what its events taught it before the server shows it recent events again."""

from __future__ import annotations

import asyncio
import random
import socket
from pathlib import Path
from typing import Any

import pytest
from tyros_client import botclient
from tyros_client.botclient import BotRun, play_bot
from tyros_client.bots import Bot, GreedyBot, make_bot
from tyros_client.notices import Updated
from tyros_protocol.messages import Prompt
from tyros_rules import K_PROPOSE
from tyros_server.app import ServerConfig, TyrosServer

from tests.client.frames import a_trade, a_view, an_update, typed_update

TRADE = {
    "type": "trade_completed",
    "seat": 1,
    "with": 2,
    "give": ["orange"],
    "get": ["green", "green"],
}


@pytest.mark.parametrize("strategy", ["greedy", "ismcts"])
def test_forgetting_makes_an_event_seen_again_count_once(strategy: str) -> None:
    bot = make_bot(strategy, 0, random.Random(1))
    bot.observe(TRADE)
    once = [list(cards) for cards in bot.memory.cards]  # type: ignore[attr-defined]
    bot.observe(TRADE)  # shown again without forgetting: counted twice
    assert bot.memory.cards[1] != once[1]  # type: ignore[attr-defined]
    bot.forget()
    assert not any(any(cards) for cards in bot.memory.cards)  # type: ignore[attr-defined]
    bot.observe(TRADE)
    assert bot.memory.cards == once  # type: ignore[attr-defined]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_a_bot_resumed_after_a_server_restart_sees_each_event_once_then_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the restart the server replays the recent events; the bots skip those they
    have seen (each event carries its version), so none forgets and none counts one twice."""
    made: list[Bot] = []
    forgotten: list[int] = []
    observed: dict[int, list[int]] = {}

    def recording_make_bot(name: str, seat: int, rng: random.Random, **options: Any) -> Bot:
        bot = make_bot(name, seat, rng, **options)
        made.append(bot)
        return bot

    def recording_forget(self: GreedyBot) -> None:
        forgotten.append(self.seat)
        original_forget(self)

    def recording_observe(self: GreedyBot, event: dict[str, Any]) -> None:
        observed.setdefault(self.seat, []).append(event["version"])
        original_observe(self, event)

    original_forget, original_observe = GreedyBot.forget, GreedyBot.observe
    monkeypatch.setattr(botclient, "make_bot", recording_make_bot)
    monkeypatch.setattr(GreedyBot, "forget", recording_forget)
    monkeypatch.setattr(GreedyBot, "observe", recording_observe)
    port, db = free_port(), str(tmp_path / "t.db")
    config = ServerConfig(host="127.0.0.1", port=port, db=db, allow_seed=True)
    server = TyrosServer(config)
    await server.start()
    runs = [
        BotRun(f"ws://127.0.0.1:{port}", "restart", f"bot{i}", "greedy", players=3, seed=8)
        for i in range(3)
    ]
    tasks = [asyncio.create_task(play_bot(run, random.Random(i))) for i, run in enumerate(runs)]
    try:
        async with asyncio.timeout(120):
            while sum(run.actions_sent for run in runs) < 40:
                await asyncio.sleep(0.05)
            await server.stop()
            assert not any(task.done() for task in tasks)
            before = {seat: len(versions) for seat, versions in observed.items()}
            server = TyrosServer(config)
            await server.start()
            scores = await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await server.stop()
    assert all(score == scores[0] for score in scores) and scores[0]["winners"]
    assert len(made) == 3  # the same bots played on
    assert forgotten == []
    for seat, versions in observed.items():
        assert versions == sorted(versions), f"seat {seat} saw an event again"
        assert len(versions) > before[seat] > 0
        assert versions[-1] > versions[before[seat] - 1]  # it saw the game go on


def test_a_bot_neither_repeats_an_offer_in_a_round_nor_withdraws_an_accepted_one() -> None:
    from tyros_client import botclient as bc
    from tyros_client.bots.base import Bot as BaseBot

    class Proposer(BaseBot):
        def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
            return next((a for a in legal if a[0] == K_PROPOSE), legal[-1])

    offer = {"kind": "propose", "to": [1], "give": ["green"], "get": ["violet"]}
    message: dict[str, Any] = {
        "view": {"trade": None, "round": 2},
        "prompt": {"version": 9, "legal": [{"kind": "pass"}, offer]},
    }
    run = bc.BotRun("ws://x:1", "t", "b", "test", 3)
    run.seat = 0
    bot = Proposer(0, random.Random(1))
    assert bc._choose(bot, run, message["view"], message["prompt"]["legal"]) == offer
    assert bc._choose(
        bot, run, message["view"], message["prompt"]["legal"], {bc._offer_key(offer)}
    ) == {"kind": "pass"}
    # Somebody accepted: the bot completes, whatever it would rather do.
    accepted: dict[str, Any] = {
        "view": {
            "trade": {"proposer": 0, "answers": [{"seat": 1, "answer": "accept"}]},
            "round": 2,
        },
        "prompt": {"version": 10, "legal": [{"kind": "withdraw"}, {"kind": "complete", "with": 1}]},
    }
    assert bc._choose(bot, run, accepted["view"], accepted["prompt"]["legal"]) == {
        "kind": "complete",
        "with": 1,
    }
    # One accepted while another asked seat (a person, as far as the bot knows) still
    # thinks: the bot waits for that answer, however long it takes (the table's time to
    # answer bounds it: the server then declines for them, and the next update comes).
    still: dict[str, Any] = {
        "view": {
            "trade": {
                "proposer": 0,
                "answers": [{"seat": 1, "answer": "accept"}, {"seat": 2, "answer": "pending"}],
            },
            "round": 2,
        },
        "prompt": accepted["prompt"],
    }
    assert bc._choose(bot, run, still["view"], still["prompt"]["legal"]) is None
    # A program still answering is not waited for: only people are.
    run.people = frozenset({0})
    assert bc._choose(bot, run, still["view"], still["prompt"]["legal"]) == {
        "kind": "complete",
        "with": 1,
    }
    run.people = frozenset({0, 2})
    assert bc._choose(bot, run, still["view"], still["prompt"]["legal"]) is None
    # Nobody accepted yet and a program still answers: only withdrawing is left, so the bot
    # waits for that program too.
    alone: dict[str, Any] = {
        "view": {
            "trade": {
                "proposer": 0,
                "answers": [{"seat": 1, "answer": "decline"}, {"seat": 2, "answer": "pending"}],
            },
            "round": 2,
        },
        "prompt": {"version": 11, "legal": [{"kind": "withdraw"}]},
    }
    run.people = frozenset({0})
    assert bc._choose(bot, run, alone["view"], alone["prompt"]["legal"]) is None


async def test_a_bot_started_again_takes_its_seat_back_with_the_kept_token(
    tmp_path: Path,
) -> None:
    """tyros-bot keeps each seat's token (bot-tokens.json): the same command run again after
    the process stopped plays on in the same seat instead of finding the table full."""
    from tyros_client.tokens import TokenStore

    tokens = TokenStore(tmp_path / "bot-tokens.json")
    port = free_port()
    server = TyrosServer(ServerConfig(host="127.0.0.1", port=port, db=str(tmp_path / "t.db")))
    await server.start()
    url = f"ws://127.0.0.1:{port}"

    def run(i: int) -> BotRun:
        return BotRun(url, "again", f"bot-{i}", "random", players=3, tokens=tokens)

    runs = [run(i) for i in range(3)]
    tasks = [asyncio.create_task(play_bot(r, random.Random(i))) for i, r in enumerate(runs)]
    try:
        async with asyncio.timeout(120):
            while runs[2].actions_sent < 5:
                await asyncio.sleep(0.02)
            tasks[2].cancel()  # the third bot's process stops
            await asyncio.gather(tasks[2], return_exceptions=True)
            seat = runs[2].seat
            again = run(2)  # the same command again: a new process knows only the file
            assert again.token is None and tokens.load(again.key) == runs[2].token
            tasks[2] = asyncio.create_task(play_bot(again, random.Random(9)))
            scores = await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await server.stop()
    assert again.seat == seat and again.errors.get("table_full", 0) == 0
    assert all(score == scores[0] for score in scores) and scores[0]["winners"]


async def test_tyros_bot_without_count_fills_the_empty_seats_with_greedy_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``tyros-bot HOST:PORT --table T``: at a table it creates, every seat but one (the
    player's); at a table with a player seated, every empty seat; greedy unless told."""
    from tests.client.tui.harness import ScriptedSeat, until

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    made: list[BotRun] = []
    real_play = botclient.play_bot

    async def recorded(run: BotRun, rng: random.Random) -> dict[str, Any]:
        made.append(run)
        return await real_play(run, rng)

    monkeypatch.setattr(botclient, "play_bot", recorded)
    port = free_port()
    server = TyrosServer(ServerConfig(host="127.0.0.1", port=port, db=str(tmp_path / "t.db")))
    await server.start()
    url = f"ws://127.0.0.1:{port}"
    try:
        command = [url, "--table", "new", "--players", "3", "--quiet", "--seed", "2"]
        bots = asyncio.create_task(asyncio.to_thread(botclient.main, command))
        await until(lambda: len(made) == 2 and all(r.seat is not None for r in made), "2 bots")
        # They say they are programs: the table shows them as bots.
        assert [slot.program for slot in server.session.tables["new"].seats] == [True, True]
        ann = ScriptedSeat(url, "new", "Ann")  # the seat they left takes the player
        await asyncio.wait_for(ann.run(), 120)
        assert await asyncio.wait_for(bots, 120) == 0
        assert [r.name for r in made] == ["bot-1", "bot-2"]
        assert {r.strategy for r in made} == {"greedy"} and ann.score is not None
        assert "Empires:" in capsys.readouterr().out

        made.clear()
        cyd = ScriptedSeat(url, "joined", "Cyd", players=4)
        sitting = asyncio.create_task(cyd.run())
        await until(cyd.seated.is_set, "Cyd seated")
        bots = asyncio.create_task(
            asyncio.to_thread(botclient.main, [url, "--table", "joined", "--quiet", "--forget"])
        )
        assert await asyncio.wait_for(bots, 120) == 0
        await asyncio.wait_for(sitting, 120)
        assert [r.name for r in made] == ["bot-1", "bot-2", "bot-3"]
    finally:
        await server.stop()


async def test_a_proposing_bot_waits_for_a_person_and_goes_on_when_they_answer() -> None:
    """Seat 1 (a program) accepted, seat 2 (a person) says nothing: the bot sends nothing,
    however long the person thinks; the update that says the person answered (here the
    server declined for them when the time to answer ran out) lets it complete at once."""
    from tyros_client import botclient as bc
    from tyros_client.bots.base import Bot as BaseBot

    class Completer(BaseBot):
        def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
            return legal[-1]

    class Session:
        token = None
        prompt: Prompt | None = None

        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []

        def send_action(self, action: dict[str, Any]) -> bool:
            self.sent.append(action)
            return True

    session = Session()
    run = bc.BotRun("ws://x:1", "t", "b", "test", 3)
    run.seat = 0
    run.people = frozenset({2})
    player = bc._BotPlayer(run, random.Random(1), session)  # type: ignore[arg-type]
    player.bot = Completer(0, random.Random(1))

    def update(version: int, person: str) -> Updated:
        prompt = {
            "id": 10,
            "version": version,
            "legal": [{"kind": "withdraw"}, {"kind": "complete", "with": 1}],
        }
        answers = [{"seat": 1, "answer": "accept"}, {"seat": 2, "answer": person}]
        trading = a_view(phase="trade", round=1, trade=a_trade(0, answers))
        message = typed_update(an_update(version, view=trading, prompt=prompt))
        session.prompt = message.prompt
        return Updated(message, [], resync=False, restart=False)

    player.handle(update(10, "pending"))
    assert player.thinking is not None
    await player.thinking  # it thought, and chose to wait
    assert session.sent == []
    player.handle(update(11, "decline"))
    assert player.thinking is not None
    await player.thinking
    assert session.sent == [{"kind": "complete", "with": 1}]


LED = {"root_prior": 1.0, "root_width": 16, "prior_every_phase": True}
"""How the searching levels are led by greedy's preferences."""
QUICK = {"answer_iterations": 150}
"""How long they search an answer to an offer (unless ``--iterations`` says: every decision,
or ``--answer-iterations`` says otherwise)."""


@pytest.mark.parametrize(
    ("arguments", "strategy", "options"),
    [
        ([], "greedy", {}),
        (["--level", "easy"], "greedy", {"slip": 0.25}),
        (
            ["--level", "hard"],
            "ismcts",
            {**LED, **QUICK, "iterations": 1000, "move_time": 0.5},
        ),
        (
            ["--level", "hard", "--iterations", "2000"],
            "ismcts",
            {**LED, "iterations": 2000},
        ),
        (
            ["--level", "hard", "--iterations", "1000", "--answer-iterations", "150"],
            "ismcts",
            {**LED, **QUICK, "iterations": 1000},
        ),
        (
            ["--level", "hard", "--answer-iterations", "300"],
            "ismcts",
            {**LED, "answer_iterations": 300, "iterations": 1000, "move_time": 0.5},
        ),
        (
            ["--level", "hard", "--move-time", "1"],
            "ismcts",
            {**LED, **QUICK, "iterations": 1000, "move_time": 1.0},
        ),
        (["--strategy", "random"], "random", {}),
    ],
)
def test_tyros_bot_plays_the_level_asked_for_as_tyros_play_does(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    strategy: str,
    options: dict[str, Any],
) -> None:
    made: list[BotRun] = []

    async def fill_seats(make_run: Any, seed: int | None) -> Any:
        made.append(make_run(0))
        raise botclient.BotGiveUp("stopped here")

    monkeypatch.setattr(botclient, "fill_seats", fill_seats)
    assert botclient.main(["127.0.0.1:1", "--forget", "--quiet", *arguments]) == 1
    assert "stopped here" in capsys.readouterr().err
    assert (made[0].strategy, made[0].options) == (strategy, options)


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--answer-iterations", "0"], "answer_iterations must be at least 1"),
        (["--iterations", "0"], "iterations must be at least 1"),
        (["--move-time", "-1"], "move_time must be more than 0"),
    ],
)
def test_tyros_bot_refuses_a_budget_its_strategy_refuses_before_it_connects(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    words: str,
) -> None:
    tried: list[Any] = []
    monkeypatch.setattr(botclient, "fill_seats", lambda *given: tried.append(given))
    with pytest.raises(SystemExit) as exit_:
        botclient.main(["127.0.0.1:1", "--forget", "--level", "hard", *arguments])
    assert exit_.value.code == 2
    assert words in capsys.readouterr().err
    assert tried == []  # it never went looking for the table
