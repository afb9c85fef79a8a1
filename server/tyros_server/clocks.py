"""Game clocks: seconds for each decision, plus a reserve a seat spends when it thinks longer.

As on Board Game Arena: every decision a seat must make gets ``decision`` seconds; the time
it takes beyond that comes out of its reserve, which never fills up again. When a decision
has used its seconds and the whole reserve, the server makes that one decision for the
seat (a bot, from that seat's view) and the seat decides again at its next prompt, with
``decision`` seconds and no reserve. A seat's clock runs while it must act, except for a
trade's proposer while asked seats are still answering (their slowness is not its).

>>> clocks = Clocks(decision=10, reserve=[60.0, 60.0, 60.0])
>>> clocks.follow({0: 5}, waiting=set(), now=100.0)
>>> clocks.deadline(0)
170.0
>>> clocks.spend(0, now=125.0)  # 25 s: 10 free, 15 from the reserve
>>> clocks.reserve[0]
45.0
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Clocks:
    """The clocks of one table's seats."""

    decision: float
    """Free seconds for each decision."""
    reserve: list[float]
    """Each seat's reserve left, in seconds."""
    since: dict[int, tuple[int, float]] = field(default_factory=dict)
    """Each seat whose clock runs: (the prompt id of its decision, when its clock started)."""

    @classmethod
    def start(cls, decision: float, reserve: float, players: int) -> Clocks:
        return cls(float(decision), [float(reserve)] * players)

    def copy(self) -> Clocks:
        return Clocks(self.decision, list(self.reserve), dict(self.since))

    def follow(self, prompts: dict[int, int], *, waiting: set[int], now: float) -> None:
        """After the prompts changed: a new decision's clock starts now, a decision that
        goes on keeps its start, and the seats in ``waiting`` (a proposer while answers
        are pending) or with nothing to decide have no clock running."""
        since: dict[int, tuple[int, float]] = {}
        for seat, prompt in prompts.items():
            if seat in waiting:
                continue
            kept = self.since.get(seat)
            since[seat] = kept if kept is not None and kept[0] == prompt else (prompt, now)
        self.since = since

    def spend(self, seat: int, *, now: float) -> None:
        """``seat`` decided: the time it took beyond its free seconds leaves its reserve."""
        running = self.since.pop(seat, None)
        if running is not None:
            over = max(0.0, now - running[1] - self.decision)
            self.reserve[seat] = max(0.0, self.reserve[seat] - over)

    def deadline(self, seat: int) -> float | None:
        """When ``seat``'s time for its current decision runs out (None: no clock runs)."""
        running = self.since.get(seat)
        if running is None:
            return None
        return running[1] + self.decision + self.reserve[seat]

    def due(self, now: float) -> list[int]:
        """The seats whose time has run out, in seat order."""
        return sorted(
            seat for seat in self.since if (end := self.deadline(seat)) is not None and now >= end
        )

    def shown(self, now: float) -> list[dict[str, Any]]:
        """What an update says of the clocks: each seat's reserve left and, while its
        clock runs, the seconds left for its decision (free seconds and reserve)."""
        out = []
        for seat, reserve in enumerate(self.reserve):
            end = self.deadline(seat)
            left = None if end is None else round(max(0.0, end - now), 1)
            running = self.since.get(seat)
            if running is not None:  # the reserve as it stands now, spent or not
                over = max(0.0, now - running[1] - self.decision)
                reserve = max(0.0, reserve - over)
            out.append({"seat": seat, "reserve": round(reserve, 1), "left": left})
        return out
