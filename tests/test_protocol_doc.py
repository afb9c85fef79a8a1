"""The annotated transcript in docs/protocol.md is what a live server does.

The transcript (the ```transcript block) is played against a real server, its seed fixed
so that the deal is the documented one: ``A → {...}`` is sent on connection A as written
(``"<A's token>"`` stands for the token A's welcome gave), ``A ← {...}`` must arrive on A
after what A's previous line matched, ``A closes the connection`` closes it (the next
``A →`` opens a new one), and ``… play on ... until the phase is "keep"`` (or ``until the
game is over``) has every seat act on each prompt with its first legal action. In a
received message ``...`` stands for fields, list items or a value not shown; everything
shown must be exactly as sent. Every other message of the block (each one sent, and each
one received in full) must also validate against the protocol's models.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from tyros_protocol.messages import CLIENT_ADAPTER, SERVER_ADAPTER
from tyros_server.app import ServerConfig, TyrosServer
from websockets.asyncio.client import ClientConnection, connect

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
SEED = 7
"""The seed of the transcript's game (the server draws it; the test fixes what it draws)."""
WAIT = 10.0
ANY = "..."

LINE = re.compile(r"^(?P<who>[A-Z]) (?P<dir>→|←) (?P<json>\{.*\})$")
CLOSE = re.compile(r"^(?P<who>[A-Z]) closes the connection")
PLAY = re.compile(r'^… .*until (?:the phase is "(?P<phase>\w+)"|the game is (?P<over>over))')


def transcript_lines() -> list[str]:
    """The transcript block's lines, continuation lines (indented) joined to theirs."""
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"^```transcript\n(.*?)^```", text, re.S | re.M)
    assert found, "docs/protocol.md has no ```transcript block"
    lines: list[str] = []
    for raw in found.group(1).splitlines():
        if raw.startswith(" ") and lines:
            lines[-1] += " " + raw.strip()
        elif raw.strip():
            lines.append(raw.strip())
    return lines


def parse_pattern(text: str) -> Any:
    """A received message as the doc writes it: JSON in which ``...`` elides (the rest of an
    object's fields, any run of list items, or a value)."""
    text = re.sub(r"\{\s*\.\.\.\s*\}", '{"...": "..."}', text)
    text = re.sub(r",\s*\.\.\.\s*\}", ', "...": "..."}', text)
    text = re.sub(r'(?<!")\.\.\.(?!")', '"..."', text)
    return json.loads(text)


def matches(pattern: Any, actual: Any) -> bool:
    """Whether ``actual`` is what ``pattern`` shows.

    >>> matches({"a": [1, "...", 4], "...": "..."}, {"a": [1, 2, 3, 4], "b": 2})
    True
    >>> matches({"a": 1}, {"a": 1, "b": 2})
    False
    """
    if pattern == ANY:
        return True
    if isinstance(pattern, dict):
        if not isinstance(actual, dict):
            return False
        keys = set(pattern) - {ANY}
        if ANY not in pattern and keys != set(actual):
            return False
        return keys <= set(actual) and all(matches(pattern[k], actual[k]) for k in keys)
    if isinstance(pattern, list):
        return isinstance(actual, list) and _matches_items(pattern, actual)
    return bool(pattern == actual) and type(pattern) is type(actual)


def mismatch(pattern: Any, actual: Any, path: str = "") -> str:
    """Where ``actual`` first differs from ``pattern`` (for the failure message)."""
    if isinstance(pattern, dict) and isinstance(actual, dict):
        keys = set(pattern) - {ANY}
        if ANY not in pattern and keys != set(actual):
            return f"{path or '.'}: fields {sorted(set(actual) ^ keys)}"
        for key in sorted(keys):
            if key not in actual:
                return f"{path}.{key}: missing"
            if not matches(pattern[key], actual[key]):
                return mismatch(pattern[key], actual[key], f"{path}.{key}")
    return f"{path}: {json.dumps(actual)[:300]}"


def _matches_items(pattern: list[Any], actual: list[Any]) -> bool:
    if not pattern:
        return not actual
    if pattern[0] == ANY:  # any run of items, however long
        return any(_matches_items(pattern[1:], actual[at:]) for at in range(len(actual) + 1))
    return (
        bool(actual) and matches(pattern[0], actual[0]) and _matches_items(pattern[1:], actual[1:])
    )


@dataclass
class Party:
    """One connection of the transcript and everything it received."""

    url: str
    ws: ClientConnection | None = None
    received: list[dict[str, Any]] = field(default_factory=list)
    read: int = 0
    """Index of the first message the next ``←`` may match."""
    token: str | None = None
    acted: set[int] = field(default_factory=set)
    reader: asyncio.Task[None] | None = None
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def send(self, message: dict[str, Any]) -> None:
        if self.ws is None:
            self.ws = await connect(self.url, compression=None)
            self.read = len(self.received)
            self.reader = asyncio.create_task(self._read(self.ws))
        await self.ws.send(json.dumps(message))

    async def _read(self, ws: ClientConnection) -> None:
        async for frame in ws:
            message = json.loads(frame)
            SERVER_ADAPTER.validate_python(message)  # everything sent is valid protocol
            if message.get("type") == "welcome" and message.get("token"):
                self.token = message["token"]
            self.received.append(message)
            self.arrived.set()

    async def close(self) -> None:
        assert self.ws is not None
        await self.ws.close()
        if self.reader is not None:
            await self.reader
        self.ws = None

    async def expect(self, pattern: Any, line: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while True:
            for at in range(self.read, len(self.received)):
                if matches(pattern, self.received[at]):
                    self.read = at + 1
                    return
            self.arrived.clear()
            try:
                await asyncio.wait_for(self.arrived.wait(), deadline - loop.time())
            except TimeoutError:
                unread = [
                    m for m in self.received[self.read :] if m.get("type") == pattern.get("type")
                ]
                why = (
                    "\n".join(f"  {mismatch(pattern, m)}" for m in unread)
                    or "  nothing of that type"
                )
                pytest.fail(f"never received: {line}\nwhat came instead differs at:\n{why}")

    def latest_update(self) -> dict[str, Any] | None:
        return next((m for m in reversed(self.received) if m["type"] == "update"), None)


def substitute(value: Any, parties: dict[str, Party]) -> Any:
    if isinstance(value, str):
        named = re.fullmatch(r"<([A-Z])'s token>", value)
        if named:
            token = parties[named.group(1)].token
            assert token, f"{named.group(1)} has no token yet"
            return token
        return value
    if isinstance(value, dict):
        return {k: substitute(v, parties) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, parties) for v in value]
    return value


async def play_on(parties: dict[str, Party], phase: str | None) -> None:
    """Every seat answers each of its prompts with its first legal action until every
    seated party's newest update shows ``phase`` (``over`` for the end)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    seated = [p for p in parties.values() if p.ws is not None and p.latest_update()]

    def reached() -> bool:
        views = [p.latest_update() for p in seated]
        return all(u is not None and u["view"]["phase"] == phase for u in views)

    while not reached():
        assert loop.time() < deadline, "the game did not reach that phase"
        for party in seated:
            update = party.latest_update()
            prompt = update and update.get("prompt")
            if prompt and prompt["id"] not in party.acted:
                party.acted.add(prompt["id"])
                action = prompt["legal"][0]
                await party.send({"type": "action", "version": prompt["version"], "action": action})
        await asyncio.sleep(0.02)
    for party in seated:  # the next lines read on from the update that got there
        party.read = next(
            at
            for at in range(party.read, len(party.received))
            if party.received[at]["type"] == "update"
            and party.received[at]["view"]["phase"] == phase
        )


def steps() -> Iterator[tuple[str, str, Any]]:
    for line in transcript_lines():
        if line.startswith("#"):
            continue
        if found := LINE.match(line):
            text = found.group("json")
            value = json.loads(text) if found.group("dir") == "→" else parse_pattern(text)
            yield found.group("dir"), found.group("who"), (value, line)
        elif found := CLOSE.match(line):
            yield "close", found.group("who"), line
        elif found := PLAY.match(line):
            yield "play", "", "over" if found.group("over") else found.group("phase")
        else:
            raise AssertionError(f"a transcript line this test cannot read: {line}")


def test_the_transcript_reads_as_steps() -> None:
    kinds = [kind for kind, _, _ in steps()]
    assert kinds.count("→") >= 10 and kinds.count("←") >= 10
    assert {"play", "close"} <= set(kinds)
    for kind, _, value in steps():
        if kind == "→":  # everything the doc tells a client to send is valid
            CLIENT_ADAPTER.validate_python(value[0])


async def test_the_transcript_is_what_a_live_server_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(secrets, "randbits", lambda bits: SEED)  # the lobby's table seeds
    server = TyrosServer(ServerConfig(port=0, db=str(tmp_path / "doc.db")))
    await server.start()
    url = f"ws://127.0.0.1:{server.port}"
    parties: dict[str, Party] = {}
    try:
        for kind, who, value in steps():
            party = parties.setdefault(who, Party(url)) if who else None
            if kind == "→":
                assert party is not None
                await party.send(substitute(value[0], parties))
            elif kind == "←":
                assert party is not None
                await party.expect(value[0], value[1])
            elif kind == "close":
                assert party is not None
                await party.close()
            else:
                await play_on(parties, value)
    finally:
        for party in parties.values():
            if party.ws is not None:
                await party.ws.close()
        await server.stop()
