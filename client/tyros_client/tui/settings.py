"""The player's settings (``set NAME on|off``), kept between games in ``settings.json`` in
the user's data directory (``tyros-play``: beside its database), so that a setting is said
once, not at every game.

Until the player says otherwise, ``confirm`` is on: a first game asks before a move, city
or bank action spends three cards or more (a completion taken by mistake costs a turn).

>>> import tempfile
>>> from pathlib import Path
>>> from tyros_client.courtesy import Orders
>>> path = Path(tempfile.mkdtemp()) / "settings.json"
>>> orders = Orders()
>>> SettingsFile(path).load(orders)
>>> orders.confirm, orders.decline
(True, False)
>>> orders.confirm, orders.decline = False, True
>>> SettingsFile(path).save(orders)
>>> again = Orders()
>>> SettingsFile(path).load(again)
>>> again.confirm, again.decline, again.pass_round
(False, True, None)
"""

from __future__ import annotations

import json
import logging
from dataclasses import fields
from pathlib import Path

from ..courtesy import Orders
from ..paths import locked, write_private_json

SETTINGS_FILE = "settings.json"
DEFAULTS = {"confirm": True}
"""Settings that are on before the player ever said (the others are off)."""

log = logging.getLogger("tyros.client")


def _names() -> list[str]:
    """The settings kept: the orders that are on or off (auto-pass lasts one round only)."""
    return [field.name for field in fields(Orders) if field.type in (bool, "bool")]


class SettingsFile:
    """The player's settings on disk, readable by the user only."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self, orders: Orders) -> None:
        """Set ``orders``' settings as last saved (the defaults for those never saved)."""
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            data = {}
        if not isinstance(data, dict):
            data = {}
        for name in _names():
            value = data.get(name, DEFAULTS.get(name, False))
            if isinstance(value, bool):
                setattr(orders, name, value)

    def save(self, orders: Orders) -> None:
        """Keep ``orders``' settings for the next game (a failure is logged, not raised:
        the setting holds for this game all the same)."""
        try:
            with locked(self.path):
                write_private_json(self.path, {name: getattr(orders, name) for name in _names()})
        except OSError as exc:
            log.warning("cannot keep the settings in %s: %s", self.path, exc)
