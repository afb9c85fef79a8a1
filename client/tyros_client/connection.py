"""The thin I/O shell around a :class:`~tyros_client.session.ClientSession`.

:class:`Connection` keeps one websocket open to a server for one session: it feeds the
session every frame, writes out what the session wants sent, wakes it when its timers
are due, closes when it asks, and reconnects after the pause it chooses. What the
session's notices mean is the program's business: each one goes to ``handle``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage
from websockets.uri import parse_uri

from .notices import Notice
from .session import ClientSession
from .tls import CertificateRefused, ServerTrust

log = logging.getLogger("tyros.client")

MAX_FRAME = 8 * 1024 * 1024
"""The largest frame accepted from the server (a resync can be long)."""


class Connection:
    """Keeps ``session`` connected to ``url`` until :meth:`stop` or the session gives up.

    ``handle`` gets each notice the session passes on, in order; it may call
    ``session.send_action`` (what it queues goes out once it returns). ``on_status``
    gets a word on the connection when it changes: ``connected``, ``lost`` (with the
    reason), ``waiting`` (with the seconds), ``closed`` or ``gave up``; and ``notice``
    (with the words) for what the user should know, such as a certificate just pinned.

    ``trust`` (for a ``wss://`` URL) decides whether the server's certificate is trusted,
    on every connection, before the session sends anything; if it is not, the session
    gives up.
    """

    def __init__(
        self,
        session: ClientSession,
        url: str,
        handle: Callable[[Notice], None],
        *,
        on_status: Callable[[str, str], None] = lambda status, detail: None,
        connector: Callable[..., Any] = connect,
        trust: ServerTrust | None = None,
    ) -> None:
        self.session = session
        self.url = url
        self.handle = handle
        self.on_status = on_status
        self.connector = connector
        self.trust = trust
        self._ws: ClientConnection | None = None
        self._stopped = False
        self._wake = asyncio.Event()

    async def run(self) -> None:
        """Stay connected; returns once stopped or once the session has given up."""
        while not self._stopped and self.session.fatal is None:
            detail = ""
            try:
                async with open_websocket(self.url, self.trust, self.connector) as ws:
                    if self._trusted(ws):
                        await self._serve(ws)
                    code, reason = ws.close_code, ws.close_reason
                self.session.connection_lost(code, reason)
                detail = f"{code} {reason}".strip() if code is not None else ""
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed) as exc:
                self.session.connection_lost(None)
                detail = exc.__class__.__name__
                log.debug("connection to %s failed: %s", self.url, exc)
                hopeless = await hopeless_failure(self.url, exc, self.trust)
                if hopeless is not None:
                    self.session.give_up(hopeless)
            finally:
                self._ws = None
            if self._stopped or self.session.fatal is not None:
                break
            self.on_status("lost", detail)
            delay = self.session.reconnect_delay()
            if delay is None:
                break
            self.on_status("waiting", f"{delay:g}")
            with contextlib.suppress(TimeoutError):  # stop() ends the pause at once
                await asyncio.wait_for(self._wake.wait(), delay)
            self._wake.clear()
        self.on_status(
            "gave up" if self.session.fatal is not None else "closed", self.session.fatal or ""
        )

    def stop(self) -> None:
        """Close the connection and do not reconnect."""
        self._stopped = True
        self._wake.set()  # the writer closes the connection

    def flush(self) -> None:
        """Write out what the session wants sent (for callers outside ``handle``)."""
        self._wake.set()

    def _trusted(self, ws: ClientConnection) -> bool:
        """Whether the server's certificate is trusted (always, without ``trust``); if not,
        the session gives up. Only the websocket handshake has been sent so far."""
        try:
            notice = check_certificate(ws, self.trust)
        except CertificateRefused as exc:
            log.info("%s", exc)  # the program shows the session's reason
            self.session.give_up(str(exc))
            return False
        if notice is not None:
            self.on_status("notice", notice)
        return True

    async def _serve(self, ws: ClientConnection) -> None:
        self._ws = ws
        self.session.connection_made()
        self.on_status("connected", "")
        writer = asyncio.create_task(self._write(ws))
        try:
            with contextlib.suppress(ConnectionClosed):
                await self._send(ws)
                async for frame in ws:
                    for notice in self.session.receive(frame):
                        self.handle(notice)
                    await self._send(ws)
                    if self.session.next_timer() is not None:
                        self._wake.set()  # the writer sleeps until the new timer
                    if self.session.close_requested or self._stopped:
                        await ws.close()
                        break
        finally:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer

    async def _write(self, ws: ClientConnection) -> None:
        """Send what is queued from outside a frame, and what the session's timers send."""
        session = self.session
        with contextlib.suppress(ConnectionClosed):
            while True:
                at = session.next_timer()
                wait = None if at is None else max(0.0, at - session.clock())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                self._wake.clear()
                session.tick()
                await self._send(ws)
                if session.close_requested or self._stopped:
                    await ws.close()
                    return

    async def _send(self, ws: ClientConnection) -> None:
        for frame in self.session.frames_to_send():
            await ws.send(frame)


def open_websocket(
    url: str, trust: ServerTrust | None, connector: Callable[..., Any] = connect
) -> Any:
    """A websocket to ``url`` (``connector``'s, to use with ``async with``), with the
    client's frame size and handshake timeout, and ``trust``'s TLS context; its
    certificate is yet to be checked (:func:`check_certificate`)."""
    tls = {} if trust is None else {"ssl": trust.context}
    return connector(url, max_size=MAX_FRAME, compression=None, open_timeout=10, **tls)


def check_certificate(ws: ClientConnection, trust: ServerTrust | None) -> str | None:
    """Whether the server's certificate is trusted (always, without ``trust``): raises
    :class:`CertificateRefused` if not; returns what to tell the user, if anything."""
    if trust is None:
        return None
    ssl_object = ws.transport.get_extra_info("ssl_object")
    der = None if ssl_object is None else ssl_object.getpeercert(binary_form=True)
    return trust.check(der)


async def hopeless_failure(url: str, exc: Exception, trust: ServerTrust | None) -> str | None:
    """Why trying ``url`` again cannot help after opening it failed with ``exc`` (None: it
    may): a certificate the handshake refused, or TLS asked of a plain server (or the other
    way round), which a handshake that failed oddly may mean."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        return trust.unverified(exc) if trust is not None else str(exc)
    if not isinstance(exc, InvalidMessage | ssl.SSLError | ConnectionResetError):
        return None
    host, port = _host_port(url)
    tls = await speaks_tls(host, port)
    secure = url.startswith("wss://")
    if tls is True and not secure:
        return f"the server at {host}:{port} speaks TLS: give wss://{host}:{port}"
    if tls is False and secure:
        return (
            f"the server at {host}:{port} does not speak TLS: give {host}:{port} "
            "(plain ws://) instead of wss://"
        )
    return None


TLS_PROBE_SECONDS = 3.0
"""How long a look at whether a server speaks TLS may take."""


async def speaks_tls(host: str, port: int) -> bool | None:
    """Whether the server at ``host:port`` completes a TLS handshake (its certificate is not
    checked: this only tells a ``wss://`` server from a plain one); None if nothing answers
    there at all."""
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), TLS_PROBE_SECONDS)
    except (OSError, TimeoutError):
        return None
    writer.close()
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port, ssl=context), TLS_PROBE_SECONDS
        )
    except (OSError, TimeoutError):
        return False
    writer.close()
    with contextlib.suppress(OSError, ssl.SSLError):
        await writer.wait_closed()
    return True


def _host_port(url: str) -> tuple[str, int]:
    parsed = parse_uri(url)
    return parsed.host, parsed.port


_CLOSE_WORDS = {
    "1000": "closed",
    "1001": "the server is stopping or restarting",
    "1006": "the connection broke",
    "1011": "the server failed",
    "1012": "the server is restarting",
    "ConnectionRefusedError": "nothing answers there: the server is not running (yet)",
}


def lost_words(detail: str) -> str:
    """Why the connection went, in words: a websocket close code is read for the player.

    >>> lost_words("1001 going away")
    'the server is stopping or restarting'
    >>> lost_words(""), lost_words("EOFError")
    ('closed', 'EOFError')
    >>> lost_words("ConnectionRefusedError")
    'nothing answers there: the server is not running (yet)'
    """
    code = detail.split(" ", 1)[0]
    return _CLOSE_WORDS.get(code, detail or "closed")
