"""How a client trusts a ``wss://`` server: a CA file, or its certificate pinned on first use.

With ``--cafile FILE`` the server's certificate must chain to that CA and name the host
connected to, as a browser would check it. Without it (a home-made certificate on a LAN
has no CA) the client trusts on first use, as ssh does with host keys: the first
connection to a ``HOST:PORT`` records the SHA-256 fingerprint of the certificate it shows
(:data:`PIN_FILE`, beside the seat tokens) and says so; every later connection, each
reconnection included, must show the same certificate, or the client refuses it before
it sends anything of its own (its seat token least of all) and gives up.

``tyros-client`` and ``tyros-bot`` share the options (:func:`add_trust_options`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import ssl
from pathlib import Path

from websockets.exceptions import InvalidURI
from websockets.uri import parse_uri

from .paths import data_dir, locked, write_private_json

PIN_FILE = "known_servers.json"
"""The pinned certificates' file in :func:`~tyros_client.paths.data_dir`."""


class CertificateRefused(Exception):
    """The server's certificate is not the one trusted: the message says why and what to do."""


class PinFileError(Exception):
    """The file of pinned certificates cannot be read."""


def fingerprint(der: bytes) -> str:
    """The SHA-256 of a certificate (DER), as ``openssl x509 -noout -fingerprint -sha256``
    prints it, so that it can be compared with the server's by eye.

    >>> fingerprint(b"")[:23]
    'E3:B0:C4:42:98:FC:1C:14'
    """
    return ":".join(f"{byte:02X}" for byte in hashlib.sha256(der).digest())


def server_key(url: str) -> str:
    """``HOST:PORT`` of a websocket URL: what a pin is kept under.

    >>> server_key("wss://LocalHost:8765/"), server_key("wss://[::1]:9000")
    ('localhost:8765', '[::1]:9000')
    >>> server_key("wss://example.org")
    'example.org:443'
    """
    parsed = parse_uri(url)
    host = parsed.host.lower()
    return f"[{host}]:{parsed.port}" if ":" in host else f"{host}:{parsed.port}"


class PinStore:
    """The fingerprints of the certificates pinned on first use, by ``HOST:PORT``."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / PIN_FILE

    def _read(self) -> dict[str, str]:
        # Unlike lost seat tokens, lost pins are not harmless: a file that cannot be read
        # is an error, never an empty one (which would pin whatever is shown next).
        try:
            text = self.path.read_text("utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as exc:
            raise PinFileError(
                f"cannot read the pinned certificates in {self.path}: {exc}"
            ) from exc
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
            raise PinFileError(
                f"{self.path} does not hold pinned certificates (a JSON object of "
                '"HOST:PORT": "fingerprint"): mend it or delete it'
            )
        return data

    def load(self, key: str) -> str | None:
        """The fingerprint pinned for ``key`` (raises :class:`PinFileError`)."""
        return self._read().get(key)

    def save(self, key: str, pin: str) -> None:
        """Pin ``pin`` for ``key`` (raises :class:`PinFileError` or ``OSError``)."""
        with locked(self.path):
            data = self._read()
            data[key] = pin
            write_private_json(self.path, data)

    def forget(self, key: str) -> bool:
        """Forget the pin of ``key``; whether there was one."""
        with locked(self.path):
            data = self._read()
            if data.pop(key, None) is None:
                return False
            write_private_json(self.path, data)
        return True


class ServerTrust:
    """How the connections to one ``wss://`` server decide to trust it.

    Made once for the server; every connection's TLS handshake uses :attr:`context`, then
    :meth:`check` is given the certificate the server showed. Raises ``OSError`` or
    ``ssl.SSLError`` for a ``cafile`` that cannot be read.
    """

    def __init__(
        self, url: str, *, cafile: str | None = None, pins: PinStore | None = None
    ) -> None:
        self.key = server_key(url)
        self.cafile = cafile
        self.pins = None if cafile is not None else pins or PinStore()
        """Where pins are kept (None: the CA file decides, nothing is pinned)."""
        self._pinned: str | None = None
        """The pin this process saw, if the file could not keep it."""
        if cafile is not None:
            self.context = ssl.create_default_context(cafile=cafile)  # chain and host name
        else:
            # The handshake takes any certificate: check() compares it with the pin.
            self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            self.context.check_hostname = False
            self.context.verify_mode = ssl.CERT_NONE
        self.context.minimum_version = ssl.TLSVersion.TLSv1_2

    def check(self, der: bytes | None) -> str | None:
        """Whether a connection that showed the certificate ``der`` may go on: raises
        :class:`CertificateRefused` if not; returns what to tell the user, if anything
        (a certificate pinned just now)."""
        if self.pins is None:
            return None  # verified with the CA file during the handshake
        if der is None:
            raise CertificateRefused(f"{self.key} showed no certificate: refusing to connect")
        shown = fingerprint(der)
        try:
            pinned = self.pins.load(self.key) or self._pinned
        except PinFileError as exc:
            raise CertificateRefused(f"{exc}; refusing to connect to {self.key}") from exc
        if pinned == shown:
            return None
        if pinned is not None:
            raise CertificateRefused(
                f"the certificate of {self.key} has changed since it was pinned on first use: "
                f"pinned SHA256 {pinned}, now SHA256 {shown}. Refusing to connect: somebody "
                "may be standing between you and the server. If its certificate was replaced "
                "on purpose, run the same command once with --forget-pin to pin the new one "
                f"(pins are kept in {self.pins.path})"
            )
        self._pinned = shown
        notice = f"first connection to {self.key}: pinned certificate SHA256 {shown}"
        try:
            self.pins.save(self.key, shown)
        except (OSError, PinFileError) as exc:
            return f"{notice} (for this run only: cannot write {self.pins.path}: {exc})"
        return notice

    def unverified(self, error: ssl.SSLCertVerificationError) -> str:
        """Why the handshake refused the server's certificate, in words."""
        return (
            f"the certificate of {self.key} could not be verified with {self.cafile}: "
            f"{error.verify_message or error}; refusing to connect"
        )


def add_trust_options(parser: argparse.ArgumentParser) -> None:
    """The options of :func:`trust_from_options`."""
    group = parser.add_argument_group(
        "wss:// servers",
        "A wss:// server's certificate is verified with --cafile, or else pinned on the "
        "first connection: a later connection that shows another certificate is refused.",
    )
    group.add_argument(
        "--cafile", metavar="FILE", help="verify the server with this PEM CA file (or certificate)"
    )
    group.add_argument(
        "--pin-file",
        metavar="FILE",
        type=Path,
        default=None,
        help=f"the pinned certificates (default: {data_dir() / PIN_FILE})",
    )
    group.add_argument(
        "--forget-pin",
        action="store_true",
        help="forget this server's pinned certificate and pin the one it shows now (once, "
        "after its certificate was replaced)",
    )


def trust_from_options(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> ServerTrust | None:
    """How to trust ``args.address`` (None for ``ws://``); bad options end in ``parser.error``."""
    url: str = args.address or ""  # no address: a replay from a file
    if not url.startswith("wss://"):
        if args.cafile is not None or args.forget_pin:
            parser.error("--cafile and --forget-pin are for wss:// addresses")
        return None
    if args.cafile is not None and args.forget_pin:
        parser.error("--forget-pin is for a pinned certificate, not one verified with --cafile")
    pins = None if args.cafile is not None else PinStore(args.pin_file)
    try:
        trust = ServerTrust(url, cafile=args.cafile, pins=pins)
        if args.forget_pin and pins is not None and pins.forget(trust.key):
            print(f"forgot the certificate pinned for {trust.key}")
    except InvalidURI as exc:
        parser.error(str(exc))
    except PinFileError as exc:
        parser.error(str(exc))
    except ssl.SSLError:  # (an OSError) only the CA file is parsed by OpenSSL
        parser.error(f"cannot use --cafile {args.cafile}: it holds no PEM certificate")
    except OSError as exc:
        where = args.cafile if args.cafile is not None else (pins.path if pins else "")
        parser.error(f"cannot use {where}: {exc.strerror or exc}")
    return trust
