"""The browser's page, served on the websocket's own port: plain HTTP GETs (and HEADs) for
the packaged files of ``tyros_server/web`` (and the board's data), anything else refused;
the websocket upgrade goes on as before. Sans-I/O: :class:`RequestCheck` refuses a request
that is not for this server (another name, a page of another site, a repeated header, a
method but GET and HEAD), :meth:`WebFiles.answer` turns a request's path and headers into
a :class:`Reply`; the shell (``app.py``) sends it.

Only the files packaged are served, by exact name (no directory listing, no path outside
them); each with its content type, ``X-Content-Type-Options: nosniff``, a
``Content-Security-Policy`` that allows no inline script and connections to this host only,
and an ``ETag`` of its content (a reload asks ``If-None-Match`` and gets ``304``).

>>> files = WebFiles.packaged()
>>> reply = files.answer("/", {})
>>> reply.status, reply.headers["Content-Type"]
(200, 'text/html; charset=utf-8')
>>> files.answer("/", {"If-None-Match": reply.headers["ETag"]}).status
304
>>> files.answer("/../app.py", {}).status, files.answer("/web/", {}).status
(404, 404)
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import socket
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from importlib import resources
from typing import Any, Protocol

from tyros_protocol.words import page_catalogue
from tyros_rules import CITY_COST, SHIP_LIMIT

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
"""The content type of each kind of file served (a file of another kind is not served)."""

POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page may run only its own scripts and connect only to this host (CSP 3: 'self'
covers ws:// and wss:// to the same host)."""


SERVER_HEADER = "tyros"
"""The ``Server`` header of every answer: no version of Python or websockets to look up."""
METHODS = ("GET", "HEAD")
"""The only methods answered (405 otherwise): the page is read, never written."""
REFUSALS_LOGGED_EVERY = 60.0
"""Seconds between two log lines about the requests refused from one address."""


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes = b""

    @property
    def reason(self) -> str:
        return HTTPStatus(self.status).phrase

    def to(self, method: str) -> Reply:
        """This reply as the answer to ``method``: a HEAD's has the headers alone (its
        ``Content-Length`` still the body's)."""
        if method != "HEAD" or not self.body:
            return self
        return Reply(self.status, self.headers, b"")


def page_words() -> dict[str, Any]:
    """What the page speaks from (``/words.json``): the protocol's catalogue
    (:func:`page_catalogue`) and, under ``rules``, the rules' numbers its explanations
    (``why.js``) quote, so that the page never states a rule of its own.

    >>> page_words()["rules"]
    {'ship_limit': 2, 'city_cost': [5, 4]}
    """
    return {**page_catalogue(), "rules": {"ship_limit": SHIP_LIMIT, "city_cost": list(CITY_COST)}}


@dataclass(slots=True)
class WebFiles:
    """The files served, by path (``/`` is ``index.html``), with their ETags."""

    files: dict[str, bytes] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)

    @classmethod
    def packaged(cls) -> WebFiles:
        """The page's files packaged with the server, ``/board.json`` (the board the Python
        code loads too) and ``/words.json`` (:func:`page_words`)."""
        out = cls()
        root = resources.files("tyros_server") / "web"
        if root.is_dir():
            for entry in root.iterdir():
                if entry.is_file() and _type_of(entry.name) is not None:
                    out.add("/" + entry.name, entry.read_bytes())
        data = resources.files("tyros_protocol") / "data"
        out.add("/board.json", (data / "board.json").read_bytes())
        out.add("/words.json", json.dumps(page_words()).encode())
        return out

    def add(self, path: str, content: bytes) -> None:
        self.files[path] = content
        self.tags[path] = '"' + hashlib.sha256(content).hexdigest()[:20] + '"'

    def answer(self, path: str, headers: Mapping[str, str]) -> Reply:
        """The reply to ``GET path`` (its query string ignored)."""
        path = path.split("?", 1)[0].split("#", 1)[0]
        if path == "/":
            path = "/index.html"
        content = self.files.get(path)
        kind = _type_of(path)
        if content is None or kind is None:
            return _plain(404, "not found\n")
        out = _common(kind, len(content))
        out["ETag"] = self.tags[path]
        # The page revalidates (a new version is seen at once); the rest is named by content
        # through the page's own references, and revalidated alike: a 304 costs no body.
        out["Cache-Control"] = "no-cache"
        if headers.get("If-None-Match") == self.tags[path]:
            del out["Content-Length"]  # (a 304's would be the file's: none is simpler)
            return Reply(304, out)
        return Reply(200, out, content)


def _type_of(name: str) -> str | None:
    dot = name.rfind(".")
    return TYPES.get(name[dot:]) if dot >= 0 else None


def _common(kind: str, length: int) -> dict[str, str]:
    return {
        "Content-Type": kind,
        "Content-Length": str(length),
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": POLICY,
        "Referrer-Policy": "no-referrer",
        "Connection": "close",  # (the server closes after one answer)
    }


def _plain(status: int, text: str) -> Reply:
    body = text.encode()
    return Reply(status, _common("text/plain; charset=utf-8", len(body)), body)


def same_origin(origin: str | None, host: str | None) -> bool:
    """Whether a websocket's ``Origin`` may connect: none (a program, not a page), or this
    server's own page (``http(s)://`` the ``Host`` it was asked as). A page of another site
    may not act with the seat token of whoever opened it.

    >>> same_origin(None, "h:1"), same_origin("http://h:1", "h:1"), same_origin("http://e", "h:1")
    (True, True, False)
    """
    if origin is None:
        return True
    if host is None:
        return False
    return origin.lower() in (f"http://{host.lower()}", f"https://{host.lower()}")


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def host_of(authority: str) -> str | None:
    """The name or address of a ``Host`` header (``name[:port]``, ``[v6][:port]``), in
    lower case, without the port, the brackets or a final dot; None if it is none.

    >>> host_of("Tyros.LAN.:8765"), host_of("[::1]:80"), host_of("a:b:c"), host_of("")
    ('tyros.lan', '::1', None, None)
    """
    authority = authority.strip().lower()
    if authority.startswith("["):
        host, bracket, port = authority[1:].partition("]")
        if not bracket or (port and not (port[0] == ":" and port[1:].isdigit())):
            return None
    else:
        host, _, port = authority.partition(":")
        if port and not port.isdigit():
            return None
    return host.rstrip(".") or None


def address_of(host: str) -> IPAddress | None:
    """``host`` as an IP address (an IPv4 address mapped into IPv6 as itself; a zone
    dropped); None if it is a name."""
    try:
        address = ipaddress.ip_address(host.partition("%")[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@dataclass(frozen=True, slots=True)
class OwnNames:
    """The names and addresses this server answers to. A request for any other ``Host``
    was sent to a name that someone else controls: a page of another site whose name
    now leads here (DNS rebinding) would otherwise be this server's own page, and its
    script could play, watch and talk with the tokens of whoever opened it."""

    names: frozenset[str]
    addresses: frozenset[IPAddress]

    @classmethod
    def of(cls, listening: str, given: Iterable[str] = ()) -> OwnNames:
        """``localhost``, the machine's names (and their ``.local``, its name for
        multicast DNS), the address listened on, and the names or addresses ``given``."""
        names = {"localhost"}
        for name in (socket.gethostname(), socket.getfqdn()):
            first = name.lower().split(".")[0]
            names |= {name.lower().rstrip("."), first, f"{first}.local"}
        addresses = set()
        for text in (listening, *given):
            host = host_of(text)
            address = None if host is None else address_of(host)
            if address is not None and not address.is_unspecified:
                addresses.add(address)
            elif host is not None and address is None:
                names.add(host)
        return cls(frozenset(names - {""}), frozenset(addresses))

    def answer_to(self, host: str, local_address: str | None) -> bool:
        """Whether a request for ``host`` (a ``Host`` header) that came in on
        ``local_address`` is for this server: one of its names, or an address it listens
        on or was reached at (a browser sends an address as ``Host`` only when it connected
        to that address: no name of another site is involved)."""
        name = host_of(host)
        if name is None:
            return False
        address = address_of(name)
        if address is None:
            return name in self.names
        reached = None if local_address is None else address_of(local_address)
        return address in self.addresses or address == reached


class HeaderLines(Protocol):
    """A request's headers, each name with all its lines (websockets' ``Headers``)."""

    def get_all(self, key: str) -> list[str]: ...


SINGLE_HEADERS = ("Host", "Origin", "If-None-Match")
"""Headers a request gives once at most: two would leave open which one counts."""


@dataclass(frozen=True, slots=True)
class Refusal:
    reply: Reply
    why: str
    """For the log."""


class RequestCheck:
    """Which requests are not served (nor upgraded): a header that must come once given
    twice (400), a method but GET and HEAD (405), a ``Host`` that is not one of the
    server's :class:`OwnNames` (421), an ``Origin`` that is not that host's (403)."""

    def __init__(self, names: OwnNames) -> None:
        self.names = names

    def refusal(
        self, method: str, headers: HeaderLines, local_address: str | None
    ) -> Refusal | None:
        for name in SINGLE_HEADERS:
            if len(headers.get_all(name)) > 1:
                return Refusal(_plain(400, f"one {name} header at most\n"), f"{name} repeated")
        if method not in METHODS:
            reply = _plain(405, "only GET and HEAD here\n")
            reply.headers["Allow"] = ", ".join(METHODS)
            return Refusal(reply, f"the method {method[:16]!r}")
        hosts, origins = headers.get_all("Host"), headers.get_all("Origin")
        if not hosts:
            return Refusal(_plain(400, "a request names its Host\n"), "no Host")
        if not self.names.answer_to(hosts[0], local_address):
            text = "this server does not answer to that name (its --host-name option adds one)\n"
            return Refusal(_plain(421, text), f"the name {hosts[0][:64]!r} (--host-name adds one)")
        if origins and not same_origin(origins[0], hosts[0]):
            text = "a page of another site may not connect here\n"
            return Refusal(_plain(403, text), f"a page of {origins[0][:64]!r}")
        return None


def is_upgrade(headers: HeaderLines) -> bool:
    """Whether the request asks for a websocket (websockets checks the rest)."""
    return any(line.strip().lower() == "websocket" for line in headers.get_all("Upgrade"))


class RefusalLog:
    """Whether to log a refusal: once per address every ``every`` seconds at most, so that
    a flood of bad requests is not a flood of log lines. What it remembers is bounded: past
    ``most`` addresses in one interval, the others go unlogged."""

    def __init__(
        self,
        every: float = REFUSALS_LOGGED_EVERY,
        most: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.every, self.most, self.clock = every, most, clock
        self.last: dict[str, float] = {}

    def allows(self, address: str) -> bool:
        now = self.clock()
        last = self.last.get(address)
        if last is not None and now - last < self.every:
            return False
        if last is None and len(self.last) >= self.most:
            self.last = {a: t for a, t in self.last.items() if now - t < self.every}
            if len(self.last) >= self.most:
                return False
        self.last[address] = now
        return True
