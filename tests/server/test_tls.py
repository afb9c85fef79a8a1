"""``tyros-server --certfile F --keyfile F``: ``wss://`` on a real loopback server, plain
``ws://`` without them, and bad certificate or key files refused in one line."""

from __future__ import annotations

import logging
import ssl
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from tyros_server import cli
from tyros_server.tls import tls_context

from .conftest import HOST, RawClient, ServerFactory, url_of

DATA = Path(__file__).resolve().parent.parent / "data"
CERT, KEY = str(DATA / "localhost.pem"), str(DATA / "localhost.key")
OTHER_KEY = str(DATA / "other.key")
ENCRYPTED_KEY = str(DATA / "encrypted.key")
"""``localhost.key`` encrypted with the passphrase ``tyros``."""

OpenClient = Callable[..., Awaitable[RawClient]]


async def test_a_server_with_a_certificate_serves_wss_to_a_client_that_verifies_it(
    make_server: ServerFactory, open_client: OpenClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "tyros.server")
    server = await make_server(certfile=CERT, keyfile=KEY)
    assert f"tyros server listening on wss://{HOST}:{server.port}" in caplog.text
    verified = ssl.create_default_context(cafile=CERT)  # the host name is checked too
    client = await open_client(f"wss://{HOST}:{server.port}", ssl=verified)
    welcome = await client.hello("tls", "Ann", players=3)
    assert welcome["type"] == "welcome" and welcome["seat"] == 0 and welcome["token"]
    version = client.ws.transport.get_extra_info("ssl_object").version()
    assert version in ("TLSv1.2", "TLSv1.3")


async def test_without_a_certificate_the_server_speaks_plain_ws(
    make_server: ServerFactory, open_client: OpenClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "tyros.server")
    server = await make_server()
    assert f"tyros server listening on ws://{HOST}:{server.port}" in caplog.text
    client = await open_client(url_of(server))
    assert (await client.hello("plain", "Ann", players=3))["type"] == "welcome"


def test_the_server_speaks_tls_1_2_or_newer_only() -> None:
    context = tls_context(CERT, KEY)
    assert context is not None and context.minimum_version is ssl.TLSVersion.TLSv1_2
    assert tls_context(None, None) is None


def test_a_certificate_without_its_key_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for half in (["--certfile", CERT], ["--keyfile", KEY]):
        with pytest.raises(SystemExit) as exited:
            cli.main([*half, "--db", str(tmp_path / "t.db")])
        assert exited.value.code == 2
        assert "--certfile and --keyfile go together" in capsys.readouterr().err
    assert not (tmp_path / "t.db").exists()


README = str(DATA / "README.md")


@pytest.mark.parametrize(
    ("certfile", "keyfile", "expected"),
    [
        (CERT, README, f"{README} holds no PEM private key"),
        (CERT, OTHER_KEY, f"the key in {OTHER_KEY} does not belong to the certificate in {CERT}"),
        (KEY, KEY, f"{KEY} holds no PEM certificate"),
        (CERT, "missing.key", "cannot read missing.key: No such file or directory"),
        (CERT, ENCRYPTED_KEY, f"the key in {ENCRYPTED_KEY} is encrypted, and the server cannot"),
    ],
    ids=["not-a-key", "another-key", "not-a-certificate", "missing", "encrypted"],
)
def test_bad_certificate_or_key_files_are_one_line_and_exit_status_2(
    certfile: str, keyfile: str, expected: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # An encrypted key must not stop the server at a passphrase prompt: it is refused.
    status = cli.main(["--certfile", certfile, "--keyfile", keyfile, "--db", str(tmp_path / "t")])
    printed = capsys.readouterr()
    assert status == 2 and printed.out == ""
    assert printed.err.startswith(f"tyros-server: {expected}")
    assert printed.err.count("\n") == 1  # one line, no traceback
    assert not (tmp_path / "t").exists()  # refused before anything started
