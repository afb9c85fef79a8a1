"""The session's turns (turns.py): a batch's actions are committed in a thread of their
own, the event loop serves sockets meanwhile, and an action is acknowledged only once its
commit has completed (or refused, taken back, if the commit failed)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from tyros_server.app import TyrosServer
from tyros_server.session import Output, Send
from tyros_server.storage import StorageError

from .conftest import STEP_TIMEOUT, RawClient, ServerFactory, url_of

OpenClient = Callable[..., Awaitable[RawClient]]


async def prompted(
    server: TyrosServer, open_client: OpenClient
) -> tuple[RawClient, dict[str, Any]]:
    """A 3-player table started; the player to act and the action it sends (not yet sent)."""
    url = url_of(server)
    clients = [await open_client(url) for _ in range(3)]
    await clients[0].hello("t", "Ann", players=3, seed=5)
    await clients[1].hello("t", "Bob")
    await clients[2].hello("t", "Cy")
    for client in clients:
        update = await client.recv_until(lambda m: m["type"] == "update")
        prompt = update.get("prompt")
        if prompt:
            action = {"type": "action", "version": prompt["version"], "action": prompt["legal"][0]}
            return client, action
    raise AssertionError("nobody was prompted")


def stored_actions(server: TyrosServer) -> int:
    """Actions committed, as another connection sees them."""
    db = sqlite3.connect(server.config.db)
    try:
        return int(db.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        db.close()


async def page_answered(server: TyrosServer) -> str:
    """The status line of a GET of the page (served by the event loop alone)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    status = (await reader.readline()).decode().strip()
    writer.close()
    return status


async def test_an_action_is_acknowledged_only_after_its_commit_and_the_loop_serves_meanwhile(
    make_server: ServerFactory, open_client: OpenClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await make_server()
    client, action = await prompted(server, open_client)
    before = stored_actions(server)
    entered, release = threading.Event(), threading.Event()
    store = server.store
    commit = store.commit_aside

    def slow_commit() -> None:  # a disk that takes its time
        entered.set()
        release.wait(30)
        commit()

    monkeypatch.setattr(store, "commit_aside", slow_commit)
    delivered: list[dict[str, Any]] = []
    deliver = server.deliver

    def spy(output: Output) -> None:
        delivered.extend(item.message for item in output if isinstance(item, Send))
        deliver(output)

    monkeypatch.setattr(server.turns, "deliver", spy)
    sent = await client.send(action)
    assert await asyncio.to_thread(entered.wait, 30)
    assert await page_answered(server) == "HTTP/1.1 200 OK"  # the loop is not held up
    assert not [m for m in delivered if m.get("re") == sent]  # nothing told yet
    assert stored_actions(server) == before
    release.set()
    reply = await client.recv_until(lambda m: m.get("re") == sent and m["type"] != "update")
    assert reply["type"] == "accepted", reply
    assert stored_actions(server) == before + 1


async def test_a_commit_that_fails_in_its_thread_refuses_the_action_and_takes_it_back(
    make_server: ServerFactory, open_client: OpenClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await make_server()
    client, action = await prompted(server, open_client)
    store = server.store
    before = stored_actions(server)
    version = server.session.tables["t"].state.version  # type: ignore[union-attr]

    def failing_commit() -> None:  # the disk gives up at the sync
        store._rollback()
        store._lost = StorageError("disk I/O error")

    monkeypatch.setattr(store, "commit_aside", failing_commit)
    sent = await client.send(action)
    reply = await client.recv_until(lambda m: m.get("re") == sent and m["type"] != "update")
    assert reply["type"] == "error" and reply["code"] == "internal_error", reply
    assert reply["message"].startswith("the action was not stored")
    assert server.session.tables["t"].state.version == version  # type: ignore[union-attr]
    assert stored_actions(server) == before


async def test_a_batch_that_fails_leaves_the_next_turns_alone(
    make_server: ServerFactory, open_client: OpenClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await make_server()
    client = await open_client(url_of(server))
    end, ended = server.session.end_batch, []

    def failing_once() -> None:  # a bug in one batch's ending
        end()
        ended.append(True)
        if len(ended) == 1:
            raise RuntimeError("a bug")

    monkeypatch.setattr(server.session, "end_batch", failing_once)
    # Work whose batch fails still gets its turn's end (a tick waits for it so) ...
    await asyncio.wait_for(server.turns.call(lambda: None), STEP_TIMEOUT)
    assert len(ended) == 1
    # ... and the next turns are served.
    assert await client.list_tables() == []
    assert len(ended) >= 2
