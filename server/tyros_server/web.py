"""The browser's page, served on the websocket's own port: plain HTTP GETs for the packaged
files of ``tyros_server/web`` (and the board's data), anything else refused; the websocket
upgrade goes on as before. Sans-I/O: :meth:`WebFiles.answer` turns a request's path and
headers into a :class:`Reply`; the shell (``app.py``) sends it.

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
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources

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


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes = b""

    @property
    def reason(self) -> str:
        return {200: "OK", 304: "Not Modified", 403: "Forbidden", 404: "Not Found"}[self.status]


@dataclass(slots=True)
class WebFiles:
    """The files served, by path (``/`` is ``index.html``), with their ETags."""

    files: dict[str, bytes] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)

    @classmethod
    def packaged(cls) -> WebFiles:
        """The page's files packaged with the server, and ``/board.json`` (the board's
        data the Python code loads)."""
        out = cls()
        root = resources.files("tyros_server") / "web"
        if root.is_dir():
            for entry in root.iterdir():
                if entry.is_file() and _type_of(entry.name) is not None:
                    out.add("/" + entry.name, entry.read_bytes())
        board = resources.files("tyros_protocol") / "data" / "board.json"
        out.add("/board.json", board.read_bytes())
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
            return Reply(404, _common("text/plain; charset=utf-8"), b"not found\n")
        out = _common(kind)
        out["ETag"] = self.tags[path]
        # The page revalidates (a new version is seen at once); the rest is named by content
        # through the page's own references, and revalidated alike: a 304 costs no body.
        out["Cache-Control"] = "no-cache"
        if headers.get("If-None-Match") == self.tags[path]:
            return Reply(304, out)
        return Reply(200, out, content)


def _type_of(name: str) -> str | None:
    dot = name.rfind(".")
    return TYPES.get(name[dot:]) if dot >= 0 else None


def _common(kind: str) -> dict[str, str]:
    return {
        "Content-Type": kind,
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": POLICY,
        "Referrer-Policy": "no-referrer",
    }


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
    return origin in (f"http://{host}", f"https://{host}")
