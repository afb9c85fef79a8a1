"""``wss://`` from the clients' side: verified with ``--cafile``, or the server's certificate
pinned on first use, and a changed certificate refused (on a reconnection too) before the
seat token goes out. Real servers on loopback, with the certificates of ``tests/data``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import ssl
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from tyros_client import botclient
from tyros_client.botclient import BotGiveUp, BotRun, play_bot
from tyros_client.command_line import parse_address
from tyros_client.replay import fetch_record
from tyros_client.tls import (
    CertificateRefused,
    PinFileError,
    PinStore,
    ServerTrust,
    add_trust_options,
    fingerprint,
    trust_from_options,
)
from tyros_client.tui.main import parse_args
from tyros_client.tui.net import JoinOptions, NetClient
from tyros_client.tui.state import ClientState
from tyros_server.app import ServerConfig, TyrosServer
from websockets.asyncio.client import connect

DATA = Path(__file__).resolve().parent.parent / "data"
CERT, KEY = str(DATA / "localhost.pem"), str(DATA / "localhost.key")
OTHER_CERT, OTHER_KEY = str(DATA / "other.pem"), str(DATA / "other.key")
PIN = (
    "2C:6C:A7:BC:49:53:22:CA:66:B7:38:5F:41:90:E2:51:"
    "B6:B7:2E:DD:A8:37:86:90:C8:AD:15:1F:B2:73:5F:72"
)
OTHER_PIN = (
    "CA:BC:FA:20:5F:A7:68:C6:C3:6C:D5:20:48:D4:FA:8B:"
    "0A:D3:6A:E1:8C:79:1F:E7:5C:AF:8B:CD:91:60:2D:27"
)
"""The fingerprints ``openssl x509 -noout -fingerprint -sha256`` prints (tests/data/README.md)."""
TIMEOUT = 30.0
"""Seconds any awaited step may take (a bound that only catches a stuck test)."""


def der_of(path: str) -> bytes:
    return ssl.PEM_cert_to_DER_cert(Path(path).read_text("ascii"))


async def until(check: Callable[[], Any], what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def tls_server(
    db: Path, certfile: str = CERT, keyfile: str = KEY, port: int = 0
) -> AsyncIterator[TyrosServer]:
    server = TyrosServer(
        ServerConfig(
            host="127.0.0.1",
            port=port,
            db=str(db),
            certfile=certfile,
            keyfile=keyfile,
            allow_seed=True,
        )
    )
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def wss(server: TyrosServer) -> str:
    return f"wss://127.0.0.1:{server.port}"


def bot_runs(url: str, table: str, trust: ServerTrust | None) -> list[BotRun]:
    return [
        BotRun(url, table, f"bot-{i}", "random", players=3, seed=5, trust=trust) for i in range(3)
    ]


async def play_all(runs: list[BotRun]) -> list[dict[str, Any]]:
    tasks = [asyncio.create_task(play_bot(run, random.Random(i))) for i, run in enumerate(runs)]
    try:
        async with asyncio.timeout(TIMEOUT * 3):
            return list(await asyncio.gather(*tasks))
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


# Fingerprints, pins, options --------------------------------------------------------------


def test_the_fingerprint_is_the_one_openssl_prints() -> None:
    assert fingerprint(der_of(CERT)) == PIN
    assert fingerprint(der_of(OTHER_CERT)) == OTHER_PIN


def test_pins_are_kept_by_host_and_port_and_a_broken_file_pins_nothing(tmp_path: Path) -> None:
    pins = PinStore(tmp_path / "known_servers.json")
    assert pins.load() == {}
    pins.save("127.0.0.1:8765", PIN)
    pins.save("127.0.0.1:9000", OTHER_PIN)
    assert json.loads(pins.path.read_text()) == {"127.0.0.1:8765": PIN, "127.0.0.1:9000": OTHER_PIN}
    assert pins.forget("127.0.0.1:9000") == 1 and pins.forget("127.0.0.1:9000") == 0
    assert PinStore(pins.path).load() == {"127.0.0.1:8765": PIN}
    # A file that cannot be read is not taken for an empty one: that would pin anything.
    pins.path.write_text("{not json")
    with pytest.raises(PinFileError, match="mend it or delete it"):
        pins.load()
    refused = ServerTrust("wss://127.0.0.1:8765", pins=pins)
    with pytest.raises(CertificateRefused, match="refusing to connect"):
        refused.check(der_of(CERT))


def test_addresses_take_ws_and_wss_and_a_cafile_checks_the_host_name() -> None:
    assert parse_address("10.0.0.2:8765") == "ws://10.0.0.2:8765"  # plain ws:// by default
    assert parse_address("wss://10.0.0.2:8765") == "wss://10.0.0.2:8765"
    with pytest.raises(argparse.ArgumentTypeError):
        parse_address("wss://10.0.0.2:port")
    verified = ServerTrust("wss://localhost:8765", cafile=CERT)
    assert verified.context.check_hostname and verified.context.verify_mode is ssl.CERT_REQUIRED
    assert verified.pins is None  # with a CA file nothing is pinned
    for context in (verified.context, ServerTrust("wss://x:1", pins=PinStore()).context):
        assert context.minimum_version is ssl.TLSVersion.TLSv1_2


def test_the_trust_options_of_the_client_and_the_bot(tmp_path: Path) -> None:
    pin_file = tmp_path / "pins.json"
    PinStore(pin_file).save("127.0.0.1:9", PIN)
    args = parse_args(["wss://127.0.0.1:9", "--pin-file", str(pin_file), "--forget-pin"])
    assert args.trust is not None and args.trust.pins.path == pin_file
    assert PinStore(pin_file).load() == {}  # forgotten: pinned again next time
    assert parse_args(["127.0.0.1:9"]).trust is None
    assert parse_args(["wss://127.0.0.1:9", "--cafile", CERT]).trust.cafile == CERT

    parser = argparse.ArgumentParser()
    parser.add_argument("address", type=parse_address)
    add_trust_options(parser)
    for wrong in (
        ["127.0.0.1:9", "--cafile", CERT],  # a CA file for plain ws://
        ["wss://127.0.0.1:9", "--cafile", CERT, "--forget-pin"],
        ["wss://127.0.0.1:9", "--cafile", str(tmp_path / "missing.pem")],
        ["wss://127.0.0.1:9", "--cafile", KEY],  # not a certificate
    ):
        with pytest.raises(SystemExit):
            trust_from_options(parser, parser.parse_args(wrong))


# Real servers ------------------------------------------------------------------------------


async def test_bots_verified_with_a_cafile_play_a_whole_game_over_wss(tmp_path: Path) -> None:
    async with tls_server(tmp_path / "t.db") as server:
        scores = await play_all(bot_runs(wss(server), "tls", ServerTrust(wss(server), cafile=CERT)))
    assert scores[0]["winners"] and all(score == scores[0] for score in scores)


async def test_a_certificate_the_cafile_does_not_vouch_for_is_fatal_at_once(
    tmp_path: Path,
) -> None:
    async with tls_server(tmp_path / "t.db", OTHER_CERT, OTHER_KEY) as server:
        run = bot_runs(wss(server), "wrong-ca", ServerTrust(wss(server), cafile=CERT))[0]
        with pytest.raises(BotGiveUp) as refused:
            await asyncio.wait_for(play_bot(run, random.Random(1)), TIMEOUT)
    assert f"could not be verified with {CERT}" in str(refused.value)
    assert "self-signed certificate" in str(refused.value)


def test_a_pin_is_kept_under_the_names_the_certificate_gives_itself_too(tmp_path: Path) -> None:
    pins = PinStore(tmp_path / "known_servers.json")
    notice = ServerTrust("wss://tyros.lan:8765", pins=pins).check(der_of(CERT))
    assert notice == f"first connection to tyros.lan:8765: pinned certificate SHA256 {PIN}"
    assert pins.load() == {"tyros.lan:8765": PIN, "localhost:8765": PIN, "127.0.0.1:8765": PIN}
    # The same server by another of its names is recognised, not pinned afresh...
    by_address = ServerTrust("wss://127.0.0.1:8765", pins=pins)
    assert by_address.check(der_of(CERT)) is None
    # ... another port is another server ...
    notice = ServerTrust("wss://127.0.0.1:9000", pins=pins).check(der_of(OTHER_CERT))
    assert notice is not None and notice.startswith("first connection to 127.0.0.1:9000")
    # ... and a certificate naming a pinned server is refused, whatever address was typed.
    with pytest.raises(CertificateRefused) as refused:
        ServerTrust("wss://192.168.1.7:8765", pins=pins).check(der_of(OTHER_CERT))
    assert "shows a certificate for localhost:8765" in str(refused.value)
    assert f"pinned SHA256 {PIN}, now SHA256 {OTHER_PIN}" in str(refused.value)
    assert "192.168.1.7:8765" not in pins.load()
    # A new name for a pinned server: recognised, and said so once.
    notice = ServerTrust("wss://tyros.home:8765", pins=pins).check(der_of(CERT))
    assert notice == "tyros.home:8765 shows the certificate pinned for localhost:8765"
    assert pins.load()["tyros.home:8765"] == PIN
    # Forgetting it forgets it under every name.
    assert pins.forget("tyros.lan:8765") == 4
    assert pins.load() == {"127.0.0.1:9000": OTHER_PIN, "localhost:9000": OTHER_PIN}


async def test_the_client_pins_on_first_use_and_refuses_a_changed_certificate_on_reconnecting(
    tmp_path: Path,
) -> None:
    pins = PinStore(tmp_path / "known_servers.json")
    db = tmp_path / "t.db"
    async with tls_server(db) as first:
        port, url = first.port, wss(first)
        state = ClientState(url, "pinned", "Ann")
        net = NetClient(
            state,
            url,
            options=JoinOptions(players=3),
            max_delay=0.05,
            trust=ServerTrust(url, pins=pins),
        )
        task = asyncio.create_task(net.run())
        await until(lambda: state.seat == 0, "a seat")
    notice = f"first connection to 127.0.0.1:{port}: pinned certificate SHA256 {PIN}"
    try:
        # Kept under the address typed and under the names the certificate gives itself.
        assert json.loads(pins.path.read_text()) == {
            f"127.0.0.1:{port}": PIN,
            f"localhost:{port}": PIN,
        }
        # The same certificate after a restart: the client resumes, and says nothing more.
        await until(lambda: not state.connected, "the connection to drop")
        async with tls_server(db, port=port):
            await until(lambda: state.connected and state.seat == 0, "the seat back")
        assert [line.text for line in state.log].count(notice) == 1
        # Another certificate: refused on reconnecting, for good (not a reconnection loop).
        await until(lambda: not state.connected, "the connection to drop")
        async with tls_server(db, OTHER_CERT, OTHER_KEY, port=port):
            await asyncio.wait_for(task, TIMEOUT)
    finally:
        net.stop()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert state.fatal is not None and state.connection == "gave up"
    assert f"the certificate of 127.0.0.1:{port} has changed" in state.fatal
    assert f"pinned SHA256 {PIN}, now SHA256 {OTHER_PIN}" in state.fatal
    assert "--forget-pin" in state.fatal and str(pins.path) in state.fatal
    assert PinStore(pins.path).load()[f"127.0.0.1:{port}"] == PIN  # the pin is kept


class Recorder:
    """A stand-in for ``connect`` in :mod:`tyros_client.botclient`: what the bots sent."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    @contextlib.asynccontextmanager
    async def __call__(self, uri: str, **kwargs: Any) -> AsyncIterator[Any]:
        async with connect(uri, **kwargs) as ws:
            original = ws.send

            async def send(message: Any, *args: Any, **kwargs: Any) -> None:
                self.sent.append(json.loads(message)["type"])
                await original(message, *args, **kwargs)

            ws.send = send  # type: ignore[method-assign]
            yield ws


async def test_a_bot_refuses_a_changed_certificate_before_sending_its_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    recorder = Recorder()
    monkeypatch.setattr(botclient, "connect", recorder)
    pins = PinStore(tmp_path / "known_servers.json")
    caplog.set_level(logging.WARNING, "tyros.bot")
    async with tls_server(tmp_path / "t.db") as server:
        url = wss(server)
        trust = ServerTrust(url, pins=pins)  # one for all the bots of a server
        scores = await play_all(bot_runs(url, "tofu", trust))
        assert scores[0]["winners"]
        told = [record.getMessage() for record in caplog.records]
        pinned = [message for message in told if "pinned certificate" in message]
        assert len(pinned) == 1 and pinned[0].endswith(f"pinned certificate SHA256 {PIN}")
    async with tls_server(tmp_path / "t.db", OTHER_CERT, OTHER_KEY) as server:
        # A known server (pinned under its port) now shows another certificate.
        pins.save(f"127.0.0.1:{server.port}", PIN)
        recorder.sent.clear()
        run = BotRun(wss(server), "tofu", "late", "random", players=3, token="secret")
        run.trust = ServerTrust(wss(server), pins=pins)
        with pytest.raises(BotGiveUp, match="has changed since it was pinned"):
            await asyncio.wait_for(play_bot(run, random.Random(1)), TIMEOUT)
        assert recorder.sent == []  # not even its resume: the token stays with the bot


async def test_tyros_bot_refuses_a_changed_pin_and_takes_the_new_one_with_forget_pin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pin_file = tmp_path / "known_servers.json"
    async with tls_server(tmp_path / "t.db", OTHER_CERT, OTHER_KEY) as server:
        PinStore(pin_file).save(f"127.0.0.1:{server.port}", PIN)
        command = [wss(server), "--count", "3", "--players", "3", "--quiet", "--table-seed", "3"]
        command += ["--pin-file", str(pin_file), "--seed", "4"]
        # tyros-bot runs its own event loop: in a thread, beside the server's.
        status = await asyncio.wait_for(asyncio.to_thread(botclient.main, command), TIMEOUT)
        refused = capsys.readouterr().err
        assert status == 1 and "has changed since it was pinned" in refused
        assert f"pinned SHA256 {PIN}, now SHA256 {OTHER_PIN}" in refused
        command += ["--forget-pin"]
        status = await asyncio.wait_for(asyncio.to_thread(botclient.main, command), TIMEOUT * 3)
        out = capsys.readouterr().out
        assert status == 0 and f"forgot the certificate pinned for 127.0.0.1:{server.port}" in out
        assert "Empires:" in out  # the score sheet of the game they played
        assert PinStore(pin_file).load()[f"127.0.0.1:{server.port}"] == OTHER_PIN


async def test_a_client_that_meets_tls_on_a_plain_address_says_so_and_stops(
    tmp_path: Path,
) -> None:
    """ws:// to a server that speaks TLS: no HTTP answer comes back; the client looks, says
    the server speaks TLS and how to reach it, and stops (it looped on "connection lost")."""
    async with tls_server(tmp_path / "t.db") as server:
        port = server.port
        run = bot_runs(f"ws://127.0.0.1:{port}", "mismatch", None)[0]
        with pytest.raises(BotGiveUp) as refused:
            await asyncio.wait_for(play_bot(run, random.Random(1)), TIMEOUT)
    assert f"speaks TLS: give wss://127.0.0.1:{port}" in str(refused.value)


async def test_a_client_that_meets_plain_websockets_on_a_wss_address_says_so_and_stops(
    tmp_path: Path,
) -> None:
    server = TyrosServer(ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "p.db")))
    await server.start()
    port = server.port
    try:
        run = bot_runs(f"wss://127.0.0.1:{port}", "mismatch", None)[0]
        with pytest.raises(BotGiveUp) as refused:
            await asyncio.wait_for(play_bot(run, random.Random(1)), TIMEOUT)
    finally:
        await server.stop()
    assert f"does not speak TLS: give 127.0.0.1:{port}" in str(refused.value)


async def test_a_replay_fetched_from_a_server_meets_the_same_checks_as_a_game(
    tmp_path: Path,
) -> None:
    """``--replay TABLE`` opens its connection through the client's shell: the certificate
    is pinned or refused, and a plain address to a TLS server is told so."""
    pins = PinStore(tmp_path / "known_servers.json")
    async with tls_server(tmp_path / "t.db") as server:
        port, url = server.port, wss(server)
        with pytest.raises(ValueError, match="no table named 'nobody'"):
            await fetch_record(url, "nobody", ServerTrust(url, pins=pins))
        assert pins.load()[f"127.0.0.1:{port}"] == PIN
        with pytest.raises(ValueError, match=f"speaks TLS: give {url}"):
            await fetch_record(f"ws://127.0.0.1:{port}", "nobody")
    async with tls_server(tmp_path / "t.db", OTHER_CERT, OTHER_KEY, port=port):
        with pytest.raises(ValueError, match="has changed since it was pinned"):
            await fetch_record(url, "nobody", ServerTrust(url, pins=pins))
