"""How a client trusts a ``wss://`` server: a CA file, or its certificate pinned on first use.

With ``--cafile FILE`` the server's certificate must chain to that CA and name the host
connected to, as a browser would check it. Without it (a home-made certificate on a LAN
has no CA) the client trusts on first use, as ssh does with host keys: the first
connection to a ``HOST:PORT`` records the SHA-256 fingerprint of the certificate it shows
(:data:`PIN_FILE`, beside the seat tokens) and says so; every later connection, each
reconnection included, must show the same certificate, or the client refuses it before
it sends anything of its own (its seat token least of all) and gives up.

A pin is kept under the address as typed and under each name the certificate gives itself
(its subject alternative names, else its common name) with the same port: the same server
reached by another of its names is recognised, not pinned afresh, and a certificate that
names a server pinned with another certificate is refused, whatever address was typed.

``tyros-client`` and ``tyros-bot`` share the options (:func:`add_trust_options`).
"""

from __future__ import annotations

import argparse
import hashlib
import ipaddress
import json
import ssl
from collections.abc import Sequence
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


def _tlv(data: bytes, at: int) -> tuple[int, int, int]:
    """(tag, where its contents start, where they end) of the DER element at ``at``."""
    tag, length = data[at], data[at + 1]
    at += 2
    if length & 0x80:
        size = length & 0x7F
        if not 0 < size <= 4:
            raise ValueError("not a DER length")
        length = int.from_bytes(data[at : at + size], "big")
        at += size
    if at + length > len(data):
        raise ValueError("a DER element runs past its end")
    return tag, at, at + length


def _children(data: bytes, start: int, end: int) -> list[tuple[int, int, int]]:
    out = []
    while start < end:
        tag, begin, stop = _tlv(data, start)
        out.append((tag, begin, stop))
        start = stop
    return out


SUBJECT_ALT_NAME = bytes.fromhex("0603551d11")
"""The DER of the object identifier 2.5.29.17 (subjectAltName)."""
COMMON_NAME = bytes.fromhex("0603550403")
"""The DER of the object identifier 2.5.4.3 (commonName)."""


def certificate_names(der: bytes) -> list[str]:
    """The host names and addresses a certificate (DER) is for: its subject alternative
    names (DNS names and IP addresses), else its subject's common name; lower case. A
    certificate that cannot be read names nothing.

    >>> from pathlib import Path
    >>> pem = Path(__file__).parents[2] / "tests" / "data" / "localhost.pem"
    >>> certificate_names(ssl.PEM_cert_to_DER_cert(pem.read_text()))
    ['localhost', '127.0.0.1']
    >>> certificate_names(b"not a certificate")
    []
    """
    try:
        _, start, end = _tlv(der, 0)
        _, start, end = _children(der, start, end)[0]  # the signed part
        fields = _children(der, start, end)
        if fields and fields[0][0] == 0xA0:  # [0] version
            fields = fields[1:]
        subject = fields[4]
        extensions = [field for field in fields[6:] if field[0] == 0xA3]
        names: list[str] = []
        for _, begin, stop in extensions:
            _, begin, stop = _tlv(der, begin)  # the SEQUENCE of extensions
            for _, ext_start, ext_end in _children(der, begin, stop):
                parts = _children(der, ext_start, ext_end)
                if der[parts[0][1] - 2 : parts[0][2]] != SUBJECT_ALT_NAME:
                    continue
                value_start = parts[-1][1]  # the OCTET STRING's contents
                _, seq_start, seq_end = _tlv(der, value_start)
                for tag, name_start, name_end in _children(der, seq_start, seq_end):
                    value = der[name_start:name_end]
                    if tag == 0x82:  # dNSName
                        names.append(value.decode("ascii").lower())
                    elif tag == 0x87 and len(value) in (4, 16):  # iPAddress
                        names.append(str(ipaddress.ip_address(value)))
        if names:
            return names
        for _, set_start, set_end in _children(der, subject[1], subject[2]):
            for _, pair_start, pair_end in _children(der, set_start, set_end):
                oid, text = _children(der, pair_start, pair_end)
                if der[oid[1] - 2 : oid[2]] == COMMON_NAME:
                    names.append(der[text[1] : text[2]].decode("utf-8").lower())
        return names
    except (IndexError, ValueError, UnicodeDecodeError):
        return []


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

    def load(self) -> dict[str, str]:
        """Every pin, by ``HOST:PORT`` (raises :class:`PinFileError`)."""
        return self._read()

    def save(self, key: str, pin: str, also: Sequence[str] = ()) -> None:
        """Pin ``pin`` for ``key``, and for each of ``also`` not pinned yet (raises
        :class:`PinFileError` or ``OSError``)."""
        with locked(self.path):
            data = self._read()
            data[key] = pin
            for other in also:
                data.setdefault(other, pin)
            write_private_json(self.path, data)

    def forget(self, key: str) -> int:
        """Forget the pin of ``key``, under every name it is kept (see :class:`ServerTrust`);
        how many names it was kept under (0: there was none)."""
        with locked(self.path):
            data = self._read()
            pin = data.get(key)
            if pin is None:
                return 0
            kept = {name: value for name, value in data.items() if value != pin}
            write_private_json(self.path, kept)
        return len(data) - len(kept)


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
        (a certificate pinned just now, or recognised under another of its names)."""
        if self.pins is None:
            return None  # verified with the CA file during the handshake
        if der is None:
            raise CertificateRefused(f"{self.key} showed no certificate: refusing to connect")
        shown = fingerprint(der)
        port = self.key.rsplit(":", 1)[1]
        named = [f"[{n}]:{port}" if ":" in n else f"{n}:{port}" for n in certificate_names(der)]
        try:
            pins = self.pins.load()
        except PinFileError as exc:
            raise CertificateRefused(f"{exc}; refusing to connect to {self.key}") from exc
        if self._pinned is not None:
            pins.setdefault(self.key, self._pinned)
        pinned = pins.get(self.key)
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
        for name in named:
            if pins.get(name) not in (None, shown):
                raise CertificateRefused(
                    f"{self.key} shows a certificate for {name}, whose certificate pinned on "
                    f"first use is another one: pinned SHA256 {pins[name]}, now SHA256 "
                    f"{shown}. Refusing to connect: somebody may be standing between you and "
                    f"the server. If {name} replaced its certificate on purpose, connect to it "
                    "once with --forget-pin"
                )
        known = [name for name in named if pins.get(name) == shown]
        if known:
            notice = f"{self.key} shows the certificate pinned for {known[0]}"
        else:
            notice = f"first connection to {self.key}: pinned certificate SHA256 {shown}"
        self._pinned = shown
        try:
            self.pins.save(self.key, shown, named)
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
        forgotten = pins.forget(trust.key) if args.forget_pin and pins is not None else 0
        if forgotten:
            others = f" (and under {forgotten - 1} of its names)" if forgotten > 1 else ""
            print(f"forgot the certificate pinned for {trust.key}{others}")
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
