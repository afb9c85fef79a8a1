"""End to end: a real server on a loopback port, real websocket clients, whole games.

Bots are the ordinary ``tyros-bot`` client (:func:`play_bot`); the raw
clients speak the protocol by hand to check exactly what the server sends.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from tyros_client.botclient import BotRun
from tyros_protocol.board import BOARD
from tyros_rules import GameState, Options, new_game, parse_action, push, replay, view
from tyros_server import cli, tools
from tyros_server.app import TyrosServer

from .conftest import (
    GAME_TIMEOUT,
    RawClient,
    ServerFactory,
    Tap,
    bot_runs,
    cancel_all,
    find_table,
    finish,
    play_bots,
    private_fields_for_others,
    start_bots,
    url_of,
    wait_for,
)

OpenClient = Callable[..., Awaitable[RawClient]]


def stored_state(server: TyrosServer, table: str, upto: int | None = None) -> GameState:
    """The table's game rebuilt from the server's database (up to ``upto`` actions)."""
    stored = server.store.load_table(table)
    assert stored is not None
    state = new_game(Options(**stored.options))
    for seat, action in stored.actions[:upto]:
        push(state, seat, parse_action(action, BOARD))
    return state


def check_score_sheet(score: dict[str, Any], players: int) -> None:
    assert [p["seat"] for p in score["players"]] == list(range(players))
    totals = [p["total"] for p in score["players"]]
    assert score["winners"], score
    assert {totals[w] for w in score["winners"]} == {max(totals)}


async def play_raw(
    client: RawClient, rng: random.Random, stop: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """Act at random on every prompt until an update satisfies ``stop``; returns it.

    Acting on a prompt that a later update has overtaken is normal in trades (a copy is
    ``stale_version``; an answer to a trade completed meanwhile, ``too_late``), and a
    client this fast may outrun the rate limit (it then sends again, as the bots do):
    those are the only errors it may get.
    """
    last: dict[str, Any] | None = None
    while True:
        message = await client.recv()
        if message["type"] == "error":
            assert message["code"] in ("stale_version", "rate_limited", "too_late"), message
            if message["code"] == "rate_limited" and last is not None:
                await asyncio.sleep(0.25)
                await client.send(last)
        if message["type"] != "update":
            continue
        if stop(message):
            return message
        prompt = message.get("prompt")
        if prompt:
            last = {
                "type": "action",
                "id": client.next_id(),
                "version": prompt["version"],
                "action": rng.choice(prompt["legal"]),
            }
            await client.send(last)


def game_over(message: dict[str, Any]) -> bool:
    return bool(message["view"]["phase"] == "over")


def walk_keys(value: Any) -> set[str]:
    """Every object key anywhere in a JSON value."""
    keys: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return keys


# Whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(3, 11), (4, 12)])
async def test_a_game_between_bots_ends_with_one_agreed_score_sheet(
    server: TyrosServer, players: int, seed: int
) -> None:
    runs = bot_runs(url_of(server), "game", players, seed=seed)
    scores = await play_bots(runs, seed)

    assert all(score == scores[0] for score in scores)
    check_score_sheet(scores[0], players)
    assert sorted(run.seat for run in runs if run.seat is not None) == list(range(players))
    assert len({run.token for run in runs}) == players
    table = server.session.tables["game"]
    assert table.finished and table.state is not None
    assert table.state.score == scores[0]
    stored = server.store.load_table("game")
    assert stored is not None and stored.finished
    assert len(stored.actions) == table.state.version
    assert stored_state(server, "game").fingerprint() == table.state.fingerprint()


async def test_two_tables_play_at_once(server: TyrosServer, open_client: OpenClient) -> None:
    url = url_of(server)
    left, right = bot_runs(url, "left", 3, seed=5), bot_runs(url, "right", 4, seed=6)
    scores = await play_bots(left + right, 7)

    left_scores, right_scores = scores[:3], scores[3:]
    assert all(s == left_scores[0] for s in left_scores)
    assert all(s == right_scores[0] for s in right_scores)
    check_score_sheet(left_scores[0], 3)
    check_score_sheet(right_scores[0], 4)
    observer = await open_client(url)
    tables = await observer.list_tables()
    for name, runs in (("left", left), ("right", right)):
        info = find_table(tables, name)
        assert info is not None
        assert info["started"] and info["finished"]
        assert {seat["name"] for seat in info["seats"]} == {run.name for run in runs}
        assert [seat["seat"] for seat in info["seats"]] == list(range(len(runs)))


async def test_list_tables_shows_tables_and_seats(
    server: TyrosServer, open_client: OpenClient
) -> None:
    url = url_of(server)
    observer = await open_client(url)
    assert await observer.list_tables() == []

    ann, bob = await open_client(url), await open_client(url)
    assert (await ann.hello("friday", "Ann", players=4))["seat"] == 0
    assert (await bob.hello("friday", "Bob"))["seat"] == 1
    info = find_table(await observer.list_tables(), "friday")
    assert info is not None and len(info.pop("commitment")) == 64  # the deal's, see below
    assert info == {
        "name": "friday",
        "players": 4,
        "setup": "first",
        "started": False,
        "finished": False,
        "spectators": 0,
        "seats": [
            {"seat": 0, "name": "Ann", "connected": True, "bot": False},
            {"seat": 1, "name": "Bob", "connected": True, "bot": False},
            {"seat": 2, "name": None, "connected": False, "bot": False},
            {"seat": 3, "name": None, "connected": False, "bot": False},
        ],
    }

    await bob.close()
    await wait_for(
        lambda: server.session.tables["friday"].seats[1].conn is None, what="Bob's seat to be free"
    )
    watcher = await open_client(url)
    welcome = await watcher.hello("friday", "Eve", spectate=True)
    assert welcome["seat"] is None and welcome["token"] is None
    info = find_table(await observer.list_tables(), "friday")
    assert info is not None
    assert [s["connected"] for s in info["seats"]] == [True, False, False, False]
    assert info["spectators"] == 1

    small = await open_client(url)
    assert (await small.hello("trio", "Cy", players=3, setup="variable"))["seat"] == 0
    tables = await observer.list_tables()
    assert [t["name"] for t in tables] == ["friday", "trio"]
    trio = find_table(tables, "trio")
    assert trio is not None and trio["players"] == 3 and trio["setup"] == "variable"
    assert len(trio["seats"]) == 3


async def test_table_messages_follow_spectators_coming_and_going(
    server: TyrosServer, open_client: OpenClient
) -> None:
    """protocol.md: "whenever somebody joins, leaves or returns, every connection at the
    table gets" a ``table`` message, whose ``spectators`` counts the watchers."""
    url = url_of(server)
    player = await open_client(url)
    await player.hello("watched", "Ann", players=3)
    assert (await player.recv())["type"] == "table"
    watcher = await open_client(url)
    await watcher.hello("watched", "Eve", spectate=True)
    joined = await player.recv()
    assert joined["type"] == "table" and joined["table"]["spectators"] == 1
    await watcher.close()
    await wait_for(
        lambda: not server.session.tables["watched"].spectators, what="the spectator to be gone"
    )
    # The departure is already handled: its announcement is on its way.
    left = await player.recv()
    assert left["type"] == "table" and left["table"]["spectators"] == 0


async def test_a_spectator_sees_only_public_views_and_the_final_score(
    server: TyrosServer, open_client: OpenClient
) -> None:
    url = url_of(server)
    runs = bot_runs(url, "watched", 4, seed=21)
    first = start_bots(runs[:1], 21)
    try:
        await wait_for(lambda: "watched" in server.session.tables, what="the table")
        spectator = await open_client(url)
        welcome = await spectator.hello("watched", "Eve", spectate=True)
    except BaseException:
        await cancel_all(first)
        raise
    assert (welcome["type"], welcome["seat"], welcome["token"]) == ("welcome", None, None)
    bots = first + start_bots(runs[1:], 22)
    updates: list[dict[str, Any]] = []
    try:
        while not updates or not game_over(updates[-1]):
            message = await spectator.recv(GAME_TIMEOUT)
            assert message["type"] in ("table", "update"), message
            if message["type"] == "update":
                updates.append(message)
        scores = await finish(bots)
    finally:
        await cancel_all(bots)

    assert all(score == scores[0] for score in scores)
    assert updates[-1]["view"]["score"] == scores[0]
    events = [event for update in updates for event in update["events"]]
    assert events[-1] == {"type": "game_end", "version": updates[-1]["version"], "score": scores[0]}
    assert [e["version"] for e in events] == sorted(e["version"] for e in events)
    state = server.session.tables["watched"].state
    assert state is not None
    # Watching from before the start, the spectator saw every decision.
    assert sum(1 for event in events if event["type"] == "action") == state.version
    for update in updates:
        assert update["prompt"] is None
        assert update["view"]["viewer"] is None
        assert "hand" not in update["view"] and "tiles" not in update["view"]
        assert not {"order", "seed", "token"} & walk_keys(update)
        for event in update["events"]:
            assert private_fields_for_others(event, None) == [], event


# Seats and tokens --------------------------------------------------------------------------


async def test_a_dropped_player_resumes_with_a_full_resync_and_the_game_finishes(
    server: TyrosServer, open_client: OpenClient
) -> None:
    url = url_of(server)
    rng = random.Random(31)
    human = await open_client(url)
    welcome = await human.hello("resumed", "Human", players=3, seed=31)
    seat, token = welcome["seat"], welcome["token"]
    assert seat == 0 and isinstance(token, str)
    bots = start_bots(bot_runs(url, "resumed", 3, 2, seed=31), 32)
    try:
        dropped_at = await play_raw(human, rng, lambda m: m["version"] >= 40 or game_over(m))
        assert not game_over(dropped_at)
        human.ws.transport.abort()  # the network goes away: no closing handshake

        await wait_for(
            lambda: server.session.tables["resumed"].seats[0].conn is None,
            what="the server to notice the drop",
        )
        observer = await open_client(url)
        info = find_table(await observer.list_tables(), "resumed")
        assert info is not None and info["seats"][0]["connected"] is False
        assert info["seats"][0]["name"] == "Human"

        back = await open_client(url)
        again = await back.resume(token)
        assert again == {
            "type": "welcome",
            "re": again["re"],
            "protocol": 1,
            "table": "resumed",
            "seat": 0,
            "name": "Human",
            "token": None,
        }
        table_msg = await back.recv()
        assert table_msg["type"] == "table"
        assert table_msg["table"]["seats"][0]["connected"] is True
        resync = await back.recv()
        assert resync["type"] == "update"
        truth = stored_state(server, "resumed", resync["version"])
        assert resync["version"] >= dropped_at["version"]
        assert resync["view"] == view(truth, 0)
        assert resync["view"]["hand"] == view(truth, 0)["hand"]
        assert resync["events"], "a resync replays the recent events"
        state = server.session.tables["resumed"].state
        assert state is not None
        if resync["version"] == state.version and 0 in resync["view"]["to_act"]:
            assert resync["prompt"] is not None

        # The resynced client plays on from the resync update itself.
        prompt = resync.get("prompt")
        if prompt:
            await back.send(
                {
                    "type": "action",
                    "version": prompt["version"],
                    "action": rng.choice(prompt["legal"]),
                }
            )
        final = await play_raw(back, rng, game_over)
        scores = await finish(bots)
    finally:
        await cancel_all(bots)
    assert all(score == final["view"]["score"] for score in scores)
    assert server.session.tables["resumed"].finished


async def test_resume_takes_the_seat_from_a_live_connection(
    server: TyrosServer, open_client: OpenClient
) -> None:
    url = url_of(server)
    old = await open_client(url)
    token = (await old.hello("taken", "Ann", players=3))["token"]
    new = await open_client(url)
    welcome = await new.resume(token)
    assert (welcome["type"], welcome["seat"]) == ("welcome", 0)
    assert await old.closed_with() == 4000
    info = find_table(await new.list_tables(), "taken")
    assert info is not None and info["seats"][0]["connected"] is True


async def test_a_wrong_token_gets_bad_token(server: TyrosServer, open_client: OpenClient) -> None:
    url = url_of(server)
    player = await open_client(url)
    await player.hello("tokens", "Ann", players=3)
    stranger = await open_client(url)
    reply = await stranger.request(
        {"type": "resume", "id": 77, "protocol": 1, "token": secrets.token_urlsafe(32)}
    )
    assert (reply["type"], reply["re"], reply["code"]) == ("error", 77, "bad_token")
    # The connection is still there, and still not seated.
    assert find_table(await stranger.list_tables(), "tokens") is not None
    reply = await stranger.request({"type": "action", "version": 0, "action": {"kind": "pass"}})
    assert reply["code"] == "hello_first"


# Records ---------------------------------------------------------------------------------


async def test_export_writes_a_record_that_replays_to_the_same_score(
    server: TyrosServer, db_path: Path, tmp_path: Path
) -> None:
    runs = bot_runs(url_of(server), "exported", 3, seed=41)
    scores = await play_bots(runs, 41)
    out = tmp_path / "record.json"

    assert cli.main(["export", "--db", str(db_path), "exported", "--out", str(out)]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    replayed = replay(record)
    assert record["finished"] is True
    assert record["score"] == scores[0]
    assert replayed.score == scores[0]
    state = server.session.tables["exported"].state
    assert state is not None
    assert record["actions"] == state.version
    assert replayed.fingerprint() == state.fingerprint()
    names = {run.seat: run.name for run in runs}
    assert record["players"] == [{"seat": s, "name": names[s]} for s in range(3)]
    assert not {"token", "token_digest"} & walk_keys(record)


async def test_export_refuses_unknown_and_unstarted_tables(
    server: TyrosServer, db_path: Path, tmp_path: Path, open_client: OpenClient
) -> None:
    lone = await open_client(url_of(server))
    await lone.hello("waiting", "Ann", players=3)
    out = tmp_path / "none.json"
    assert cli.main(["export", "--db", str(db_path), "nowhere", "--out", str(out)]) == 1
    assert cli.main(["export", "--db", str(db_path), "waiting", "--out", str(out)]) == 1
    assert not out.exists()


# Deals, records and names ---------------------------------------------------------------


async def test_a_finished_game_proves_its_deal_and_a_tampered_record_fails(
    server: TyrosServer, db_path: Path, tmp_path: Path, open_client: OpenClient
) -> None:
    """The table shows a commitment to the seed from the start, reveals seed and salt at the
    end; ``tyros-server verify`` checks them and every shuffle against the record."""
    from tyros_server.fairness import seed_commitment

    runs = bot_runs(url_of(server), "fair", 3, seed=43)
    watcher = await open_client(url_of(server))
    tasks = start_bots(runs[:1], 43)
    try:
        await wait_for(lambda: "fair" in server.session.tables, what="the table")
        early = find_table(await watcher.list_tables(), "fair")
        tasks += start_bots(runs[1:], 44)
        await finish(tasks)
    finally:
        await cancel_all(tasks)
    assert early is not None and isinstance(early["commitment"], str)
    assert "seed" not in early and "salt" not in early
    late = find_table(await watcher.list_tables(), "fair")
    assert late is not None and late["finished"] and late["seed"] == 43
    assert seed_commitment(late["seed"], late["salt"]) == early["commitment"]

    out = tmp_path / "fair.json"
    assert cli.main(["export", "--db", str(db_path), "fair", "--out", str(out)]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["fairness"] == {
        "commitment": early["commitment"],
        "seed": 43,
        "salt": late["salt"],
    }
    assert cli.main(["verify", str(out)]) == 0
    assert tools.verify_record(record) == []

    dealt = next(e for e in record["events"] if e["type"] == "cards_dealt")
    swapped = {
        "orange": "violet",
        "violet": "orange",
        "yellow": "green",
        "green": "yellow",
        "wild": "wild",
    }
    forged = json.loads(json.dumps(record))
    forged_deal = next(e for e in forged["events"] if e["type"] == "cards_dealt")
    forged_deal["cards"] = [swapped[c] for c in dealt["cards"]]
    assert any("not what the seed deals" in p for p in tools.verify_record(forged))
    other_salt = {**record, "fairness": {**record["fairness"], "salt": "00" * 16}}
    assert any("commitment" in p for p in tools.verify_record(other_salt))
    (tmp_path / "forged.json").write_text(json.dumps(forged), encoding="utf-8")
    assert cli.main(["verify", str(tmp_path / "forged.json")]) == 1


async def test_a_restarted_server_makes_a_finished_games_public_record_in_its_record_process(
    make_server: ServerFactory, db_path: Path, open_client: OpenClient
) -> None:
    """A finished game not in memory is replayed from the store in a worker process (never
    on the event loop, nor in a thread holding the loop's interpreter lock)."""
    import multiprocessing

    first = await make_server()
    sheets = await play_bots(bot_runs(url_of(first), "done", 3, seed=5), 5)
    await first.stop()
    before = {child.pid for child in multiprocessing.active_children()}
    second = await make_server()
    assert "done" not in second.session.tables
    asker = await open_client(url_of(second))
    reply = await asker.request({"type": "get_record", "table": "done", "public": True})
    assert reply["type"] == "record", reply
    record = reply["record"]
    assert record["format"] == "tyros-public-replay/1"
    assert record["events"][-1]["type"] == "game_end"
    assert record["events"][-1]["score"] == sheets[0]
    made_in = {child.pid for child in multiprocessing.active_children()} - before
    assert made_in, "no worker process made the record"


async def test_a_seed_in_hello_is_refused_by_a_server_that_deals_its_own(
    make_server: ServerFactory, open_client: OpenClient
) -> None:
    server = await make_server(allow_seed=False)
    player = await open_client(url_of(server))
    reply = await player.hello("seeded", "Ann", players=3, seed=424242)
    assert (reply["type"], reply["code"]) == ("error", "seed_not_allowed")
    assert (await player.hello("seeded", "Ann", players=3))["type"] == "welcome"


async def test_a_second_player_of_the_same_name_at_a_table_is_refused(
    server: TyrosServer, open_client: OpenClient
) -> None:
    url = url_of(server)
    ann = await open_client(url)
    assert (await ann.hello("names", "Ann", players=3))["type"] == "welcome"
    other = await open_client(url)
    reply = await other.hello("names", "ann")
    assert (reply["type"], reply["code"]) == ("error", "name_taken")
    assert (await other.hello("names", "Ann B"))["seat"] == 1
    assert (await (await open_client(url)).hello("elsewhere", "Ann", players=3))["seat"] == 0


# Simultaneous decisions never go stale ------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "strategies"),
    [
        (4, ["random", "random", "random", "random"]),
        (3, ["greedy", "random", "greedy"]),
        (4, ["ismcts", "greedy", "random", "greedy"]),
    ],
)
async def test_bot_games_see_no_stale_version(
    server: TyrosServer, tap: Tap, players: int, strategies: list[str]
) -> None:
    """Trade answers and keeps are decided at once by several seats; another seat's answer
    changes the game's version but not what this seat may do, so its action still counts."""
    runs = [
        BotRun(
            url_of(server),
            "simultaneous",
            f"{strategy}-{i}",
            strategy,
            players=players,
            seed=90 + players,
            options={"iterations": 20} if strategy == "ismcts" else {},
        )
        for i, strategy in enumerate(strategies)
    ]
    scores = await play_bots(runs, 90 + players)
    assert all(score == scores[0] for score in scores)
    errors = [m for traffic in tap.connections for m in traffic.of_type("error")]
    assert [e["code"] for e in errors if e["code"] == "stale_version"] == []
    # A late answer to a trade that just ended is told so; a too-fast bot is slowed down.
    assert {e["code"] for e in errors} <= {"too_late", "rate_limited"}
    # Some actions really were taken for an older version than the one they landed on.
    late = 0
    for traffic in tap.connections:
        sent = {m["id"]: m for m in traffic.sent if m.get("type") == "action"}
        late += sum(
            1
            for ack in traffic.of_type("accepted")
            if ack["version"] > sent[ack["re"]]["version"] + 1
        )
    assert late > 0
