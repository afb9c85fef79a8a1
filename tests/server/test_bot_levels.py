"""The level of the server's own bots: a table created with them plays them at the level its
hello asked for (else at the server's default), keeps it across a restart and says it in its
info; absent people's seats and hints stay the takeover policy's. Levels ``hard`` is only
made here, never played out (a search a decision would slow the tests)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.errors import ErrorCode
from tyros_rules import Action, Kind, Options, legal_actions, new_game, seats_to_act, view
from tyros_server.deputies import Advice, Decision, Deputies, Farewell, LevelPolicies, SeatBots
from tyros_server.pool import DecisionPool
from tyros_server.session import Limits
from tyros_server.strategies import bot_takeover

from .conftest import STEP_TIMEOUT
from .harness import Harness, first, first_legal, only_error

PACED = Limits(takeover_seconds=60, bot_pace_seconds=2)


class LevelPolicy:
    """A level's policy in these tests: the first legal action, and which level it is."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.forgotten: list[str] = []

    def __call__(self, table: str, seat: int, seen: dict[str, Any], legal: list[Action]) -> Action:
        return legal[0]

    def forget(self, table: str) -> None:
        self.forgotten.append(table)


def house_decisions(harness: Harness) -> list[Decision]:
    harness.session.tick()
    harness.session.data_to_send()
    jobs = harness.session.drain_jobs()
    return [job for job in jobs if isinstance(job, Decision) and job.by == "seat"]


def create(harness: Harness, table: str = "solo", **options: Any) -> int:
    """Ann creates ``table`` with two of the server's bots; her connection."""
    conn = harness.connect()
    out = harness.hello(conn, table, "Ann", players=3, bots=2, seed=3, **options)
    assert first(out, conn, "welcome")["seat"] == 0
    return conn


def until_the_bots_decide(harness: Harness, conn: int) -> list[Decision]:
    state = harness.state("solo")
    while seats_to_act(state)[0] == 0:
        harness.play_one([conn], random.Random(1))
    return house_decisions(harness)


def test_a_table_created_at_hard_seats_search_bots(make_harness: Callable[..., Harness]) -> None:
    """As ``tyros-server`` makes them: the level's entry point, by name."""
    harness = make_harness(limits=PACED, takeover=first_legal, levels=bot_takeover)
    conn = create(harness, bot_level="hard")
    assert harness.latest_table[conn]["bot_level"] == "hard"
    [decision] = until_the_bots_decide(harness, conn)
    assert decision.level == "hard" and isinstance(decision.policy, SeatBots)
    player = decision.policy._player("solo", decision.seat)
    assert type(player).__name__ == "ISMCTSBot" and getattr(player, "seat", None) == decision.seat
    stored = harness.store.load_table("solo")
    assert stored is not None and stored.bot_level == "hard"


def test_each_level_makes_its_own_bots_and_the_takeover_stays_for_people(
    make_harness: Callable[..., Harness],
) -> None:
    made: dict[str, LevelPolicy] = {}
    harness = make_harness(
        limits=Limits(takeover_seconds=60, bot_pace_seconds=0),
        takeover=first_legal,
        levels=lambda level: made.setdefault(level, LevelPolicy(level)),
    )
    conn = create(harness, bot_level="easy")
    state = harness.state("solo")
    decisions = until_the_bots_decide(harness, conn)
    while 0 not in seats_to_act(state):  # the bots play on until Ann must decide
        assert decisions and all(d.level == "easy" and d.policy is made["easy"] for d in decisions)
        for decision in decisions:
            harness.decided(decision, decision.run())
        decisions = house_decisions(harness)
    harness.send(conn, {"type": "hint", "id": 9, "version": state.version, "advice": True})
    [advice] = [job for job in harness.session.drain_jobs() if isinstance(job, Advice)]
    assert advice.policy is first_legal  # a hint is the takeover's, whatever the level
    assert list(made) == ["easy"]  # no other level made


def test_a_table_created_without_a_level_gets_the_servers_default(
    make_harness: Callable[..., Harness],
) -> None:
    made: list[str] = []

    def levels(level: str) -> LevelPolicy:
        made.append(level)
        return LevelPolicy(level)

    harness = make_harness(
        limits=Limits(takeover_seconds=60, bot_pace_seconds=2, default_bot_level="easy"),
        takeover=first_legal,
        levels=levels,
    )
    conn = create(harness)
    assert harness.latest_table[conn]["bot_level"] == "easy"
    [decision] = until_the_bots_decide(harness, conn)
    assert decision.level == "easy" and made == ["easy"]
    plain = harness.connect()
    harness.hello(plain, "people", "Bo", players=3, bot_level="hard")  # (no bots: no level)
    listed = harness.list_tables(plain)
    [info] = [t for t in listed["tables"] if t["name"] == "people"]
    assert "bot_level" not in info
    assert listed["bot_level"] == "easy"  # what a page offers first for a new table
    assert Limits().default_bot_level == "normal"  # today's greedy bots, unless told


def test_a_table_keeps_its_level_across_a_restart(make_harness: Callable[..., Harness]) -> None:
    before = make_harness(limits=PACED, takeover=first_legal, levels=LevelPolicy)
    conn = create(before, bot_level="hard")
    until_the_bots_decide(before, conn)
    before.close()
    # (another default now: the table keeps the level it was created with)
    limits = Limits(takeover_seconds=60, bot_pace_seconds=2, default_bot_level="easy")
    after = make_harness(limits=limits, takeover=first_legal, levels=LevelPolicy)
    assert after.session.tables["solo"].bot_level == "hard"
    [decision] = house_decisions(after)
    assert decision.level == "hard" and isinstance(decision.policy, LevelPolicy)
    assert decision.policy.level == "hard"
    watcher = after.connect()
    [info] = after.list_tables(watcher)["tables"]
    assert info["bot_level"] == "hard"


def test_a_table_stored_before_levels_plays_at_the_default(
    make_harness: Callable[..., Harness],
) -> None:
    before = make_harness(limits=PACED, takeover=first_legal)
    create(before)
    before.store._db.execute("UPDATE tables SET bot_level = NULL")
    before.store._db.commit()
    before.close()
    after = make_harness(limits=PACED, takeover=first_legal, levels=LevelPolicy)
    assert after.session.tables["solo"].bot_level == "normal"


def test_a_bad_level_is_refused_and_nothing_changes(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(limits=PACED, takeover=first_legal, levels=LevelPolicy)
    conn = harness.connect()
    hello = {
        "type": "hello",
        "id": 5,
        "protocol": PROTOCOL_VERSION,
        "name": "Ann",
        "table": "solo",
        "players": 3,
        "bots": 2,
        "bot_level": "grandmaster",
    }
    refused = only_error(harness.send(conn, hello), conn, ErrorCode.BAD_MESSAGE, 5)
    assert "bot_level" in refused["message"] and "'hard'" in refused["message"]
    assert harness.list_tables(conn)["tables"] == [] and not harness.store.has_table("solo")
    assert "solo" not in harness.session.tables
    out = harness.send(conn, {**hello, "bot_level": "easy"})  # then it may
    assert first(out, conn, "welcome")["seat"] == 0


def test_without_levels_the_takeover_plays_the_bots_whatever_their_level(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness(limits=PACED, takeover=first_legal)
    conn = create(harness, bot_level="hard")
    assert harness.latest_table[conn]["bot_level"] == "hard"
    [decision] = until_the_bots_decide(harness, conn)
    assert decision.level is None and decision.policy is first_legal


def test_a_farewell_reaches_every_levels_bots() -> None:
    made: dict[str, LevelPolicy] = {}
    deputies = Deputies(
        first_legal, 0.0, LevelPolicies(lambda n: made.setdefault(n, LevelPolicy(n)))
    )
    for table, level in (("a", "easy"), ("b", "hard")):
        deputies.ask(table, 1, 0, "seat", {}, [(Kind.PASS,)], level=level)
    deputies.ask("c", 1, 0, "takeover", {}, [(Kind.PASS,)], level="hard")
    decisions = deputies.drain()
    assert [d.level for d in decisions if isinstance(d, Decision)] == ["easy", "hard", None]
    deputies.forget("a")
    [farewell] = deputies.drain()
    assert isinstance(farewell, Farewell)
    farewell.run()
    assert made["easy"].forgotten == ["a"] and made["hard"].forgotten == ["a"]


class Last:
    """A strategy for the decision processes' test: always the last legal action."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat

    def choose(self, seen: dict[str, Any], legal: list[Action]) -> Action:
        return legal[-1]


class First(Last):
    def choose(self, seen: dict[str, Any], legal: list[Action]) -> Action:
        return legal[0]


def test_a_decision_process_plays_each_seat_at_its_level() -> None:
    """The process makes a level's policy from its name (here a factory's, ``MODULE:NAME``)
    beside its takeover policy, and a farewell reaches both."""
    pool = DecisionPool.of_strategy(f"{__name__}:First", processes=1)
    state = new_game(Options(players=3, seed=2))
    seat = seats_to_act(state)[0]
    legal = legal_actions(state, seat)
    assert len(legal) > 1

    def decision(level: str | None) -> Decision:
        return Decision("a", seat, 0, "seat", view(state, seat), legal, first_legal, level=level)

    try:
        assert pool.submit(decision(f"{__name__}:Last")).result(STEP_TIMEOUT) == legal[-1]
        assert pool.submit(decision(None)).result(STEP_TIMEOUT) == legal[0]
        made = LevelPolicies(bot_takeover)
        made.of(f"{__name__}:Last")
        farewell = Farewell("a", first_legal, tuple(made.made.values()))
        assert pool.submit(farewell).result(STEP_TIMEOUT) is None
    finally:
        pool.shutdown()


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_each_level_is_a_strategy_the_server_finds_by_name(level: str) -> None:
    policy = bot_takeover(level)
    state = new_game(Options(players=3, seed=2))
    seat = seats_to_act(state)[0]
    assert type(policy._player("t", seat)).__name__ in ("GreedyBot", "ISMCTSBot")
