"""The clients' files: whole or not at all, private, and no update lost to another writer."""

from __future__ import annotations

import json
import stat
import threading
from pathlib import Path

from tyros_client.paths import locked
from tyros_client.tokens import TokenStore


def test_seat_tokens_saved_at_once_by_many_writers_are_all_kept(tmp_path: Path) -> None:
    """Bots of one machine share ``bot-tokens.json``: each save reads, adds and writes the
    file, so without the lock two saves at once would keep only one of the two tokens."""
    path = tmp_path / "bot-tokens.json"
    start = threading.Barrier(8)

    def writer(n: int) -> None:
        store = TokenStore(path)  # each its own store, as each bot process has
        start.wait()
        for i in range(25):
            store.save(f"ws://h:1|t|bot-{n}-{i}", f"token-{n}-{i}", n % 4)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    store = TokenStore(path)
    for n in range(8):
        for i in range(25):
            assert store.load(f"ws://h:1|t|bot-{n}-{i}") == f"token-{n}-{i}"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bot-tokens.json", "bot-tokens.json.lock"]


def test_forgetting_a_token_keeps_the_others(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "tokens.json")
    store.save("a", "1", 0)
    store.save("b", "2", 1)
    store.forget("a")
    assert store.load("a") is None and store.load("b") == "2"


def test_a_token_that_cannot_be_stored_is_no_error(tmp_path: Path) -> None:
    """No lock file, no token file (the directory is a file): the client plays on, and
    only a restart will not find the seat's token (a warning says where it failed)."""
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    with locked(blocked / "tokens.json"):  # no lock file can be made under a file
        pass
    store = TokenStore(blocked / "tokens.json")
    store.save("a", "1", 0)
    assert store.load("a") is None


def test_a_bots_token_is_not_taken_while_another_process_plays_its_seat(tmp_path: Path) -> None:
    """Two tyros-bot runs for one table: the second must not take the first one's seats
    back (it fills the empty ones under other names); once the first has stopped, the
    same command takes its seats back."""
    import subprocess
    import sys

    from tyros_client.botclient import BotRun, _free_runs

    path = tmp_path / "bot-tokens.json"
    other = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=-1)
    try:
        first = TokenStore(path, exclusive=True)
        first.save("ws://h:1 t bot-1", "token-1", 0)
        stored = json.loads(path.read_text())
        stored["ws://h:1 t bot-1"]["pid"] = other.pid  # as if that process had saved it
        path.write_text(json.dumps(stored))
        second = TokenStore(path, exclusive=True)
        assert second.held_elsewhere("ws://h:1 t bot-1") and second.load("ws://h:1 t bot-1") is None
        assert TokenStore(path).load("ws://h:1 t bot-1") == "token-1"  # a client's: taken

        def make_run(i: int) -> BotRun:
            return BotRun("ws://h:1", "t", f"bot-{i + 1}", "greedy", 3, tokens=second)

        assert [run.name for run in _free_runs(make_run, 2)] == ["bot-2", "bot-3"]
    finally:
        other.communicate(b"")
    assert second.load("ws://h:1 t bot-1") == "token-1"  # its process ended: the seat is ours
    assert [run.name for run in _free_runs(make_run, 2)] == ["bot-1", "bot-2"]
