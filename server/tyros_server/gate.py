"""The sockets in their websocket handshake, and the process's open-files limit: what keeps
half-open sockets and handshake floods from costing the server its file descriptors."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import time
from collections import Counter, OrderedDict

from .buckets import TokenBucket


class HandshakeGate:
    """Sockets that have connected but not finished the websocket handshake, oldest first.

    Half-open sockets cost a file descriptor each until the open timeout: when there are
    too many (in all, or from one address) the oldest is let go, so a newcomer always gets
    its turn and the process never runs out of descriptors. New sockets from one address
    beyond ``rate`` a second (after a burst of ``per_address``) are let go at once, before
    the handshake costs anything: a machine that connects and hangs up in a loop cannot
    keep the server busy with handshakes.
    """

    def __init__(self, total: int, per_address: int, rate: float | None = None) -> None:
        self.total = total
        self.per_address = per_address
        self.rate = rate
        self.waiting: OrderedDict[asyncio.BaseTransport, str] = OrderedDict()
        self.by_address: Counter[str] = Counter()
        self.allowance: dict[str, TokenBucket] = {}
        """The sockets each address seen lately may still open."""

    def _welcome(self, address: str) -> bool:
        if self.rate is None:
            return True
        now = time.monotonic()
        if len(self.allowance) > 4096:  # forget the addresses that are back to full
            self.allowance = {a: b for a, b in self.allowance.items() if not b.full_at(now)}
        bucket = self.allowance.get(address)
        if bucket is None:
            bucket = self.allowance[address] = TokenBucket.full(self.rate, self.per_address, now)
        return bucket.take(now)

    def arrive(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        if not self._welcome(address):
            if isinstance(transport, asyncio.WriteTransport):
                transport.abort()
            return
        if self.by_address[address] >= self.per_address:
            self._let_go(next(t for t, a in self.waiting.items() if a == address))
        if len(self.waiting) >= self.total:
            self._let_go(next(iter(self.waiting)))
        self.waiting[transport] = address
        self.by_address[address] += 1

    def leave(self, transport: asyncio.BaseTransport) -> None:
        address = self.waiting.pop(transport, None)
        if address is not None:
            self.by_address[address] -= 1
            if not self.by_address[address]:
                del self.by_address[address]

    def _let_go(self, transport: asyncio.BaseTransport) -> None:
        self.leave(transport)
        if isinstance(transport, asyncio.WriteTransport):
            transport.abort()
        else:
            transport.close()


def admits(held: int, by_address: int, *, cap: int, per_address: int, reserve: int) -> bool:
    """Whether a new connection from an address that holds ``by_address`` of the ``held``
    connections is let in: at most ``per_address`` from one address, and the last
    ``reserve`` places of the ``cap`` only for addresses that hold none, so that a few
    machines opening all they may never lock everyone else out.

    >>> bounds = dict(cap=1024, per_address=32, reserve=64)
    >>> admits(959, 31, **bounds), admits(959, 32, **bounds)
    (True, False)
    >>> admits(960, 1, **bounds), admits(960, 0, **bounds), admits(1024, 0, **bounds)
    (False, True, False)
    """
    if held >= cap or by_address >= per_address:
        return False
    return by_address == 0 or held < cap - reserve


def raise_fd_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; the soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return soft
