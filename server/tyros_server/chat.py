"""Table talk: who hears a line, how much may be said, what a newcomer is shown.

A seat's line goes to everyone at the table (the seats and the spectators); a spectator's
only to the spectators, so that nobody coaches a player. Every line is stored, with the
game version it was said at, before anyone hears it; the recent ones are shown again to a
connection that joins or comes back (the ``seq`` of each tells a repeated line).

>>> talk = TableTalk()
>>> line = talk.line(version=0, seat=1, name="Bob", text="hello")
>>> talk.keep(line)  # once stored
>>> line["seq"], line["audience"], talk.heard_by(line, seat=None), talk.heard_by(line, seat=2)
(1, 'table', True, True)
>>> aside = talk.line(version=0, seat=None, name="Zed", text="Bob should trade")
>>> talk.keep(aside)
>>> talk.heard_by(aside, seat=2), talk.heard_by(aside, seat=None)
(False, True)
>>> [line["text"] for line in talk.recent(seat=2)]
['hello']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KEPT_LINES = 50
"""Lines a table keeps in memory (all of them stay in the database)."""
SHOWN_LINES = 20
"""Lines shown again to a connection that joins or comes back."""
CHAT_BURST = 5
"""Lines a connection may say at once..."""
CHAT_PER_SECOND = 0.5
"""...and on average (one every two seconds)."""


@dataclass(slots=True)
class TableTalk:
    """The recent talk at one table, and the number of the next line."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    said: int = 0
    """Lines said at this table so far (the last one's ``seq``)."""

    @classmethod
    def from_stored(cls, lines: list[dict[str, Any]]) -> TableTalk:
        """The talk as the database holds it (its last lines, in order)."""
        return cls(lines[-KEPT_LINES:], lines[-1]["seq"] if lines else 0)

    def line(self, *, version: int, seat: int | None, name: str, text: str) -> dict[str, Any]:
        """The next line (a ``chat`` message), not yet kept: it is stored first."""
        return {
            "type": "chat",
            "seq": self.said + 1,
            "version": version,
            "seat": seat,
            "name": name,
            "audience": "table" if seat is not None else "spectators",
            "text": text,
        }

    def keep(self, line: dict[str, Any]) -> None:
        """Add a line built by :meth:`line` once it is stored."""
        assert line["seq"] == self.said + 1
        self.said = line["seq"]
        self.lines.append(line)
        del self.lines[:-KEPT_LINES]

    @staticmethod
    def heard_by(line: dict[str, Any], *, seat: int | None) -> bool:
        """Whether a seat (None: a spectator) hears ``line``."""
        return seat is None or line["audience"] == "table"

    def recent(self, *, seat: int | None) -> list[dict[str, Any]]:
        """The last lines a seat (None: a spectator) may hear, oldest first."""
        return [line for line in self.lines if self.heard_by(line, seat=seat)][-SHOWN_LINES:]
