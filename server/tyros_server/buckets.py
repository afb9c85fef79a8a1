"""One token bucket for every rate the server limits: messages per connection and per
address, table talk, new sockets per address.

>>> bucket = TokenBucket.full(rate=1.0, burst=2, now=0.0)
>>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)]
[True, True, False, True]
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class TokenBucket:
    """``burst`` tokens at most, refilled at ``rate`` a second; each use takes one."""

    rate: float
    burst: float
    tokens: float
    refilled: float

    @classmethod
    def full(cls, rate: float, burst: float, now: float) -> TokenBucket:
        return cls(rate, float(burst), float(burst), now)

    def ready(self, now: float) -> bool:
        """Refill for the time since the last look; whether a token is there."""
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        return self.tokens >= 1

    def spend(self) -> None:
        self.tokens -= 1

    def take(self, now: float) -> bool:
        """Take a token if there is one."""
        if not self.ready(now):
            return False
        self.spend()
        return True

    def full_at(self, now: float) -> bool:
        """Whether it would be full by ``now`` (nothing to remember about it)."""
        return self.tokens + (now - self.refilled) * self.rate >= self.burst


class PerAddress:
    """A bucket for each address, kept after its connections leave (hanging up and coming
    back must not refill it) and forgotten once full again, when many are held."""

    FORGET_BEYOND = 4096

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, address: str, now: float) -> bool:
        """Take one of ``address``'s tokens if it has one."""
        if len(self.buckets) > self.FORGET_BEYOND:
            self.buckets = {a: b for a, b in self.buckets.items() if not b.full_at(now)}
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = TokenBucket.full(self.rate, self.burst, now)
        return bucket.take(now)
