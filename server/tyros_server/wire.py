"""The JSON text of what the server sends, each shared piece encoded once; and what a
client's frame says, read strictly (:func:`decode_frame`: no key named twice).

A broadcast hands the same message object to every spectator, and to each seat a view
that is the public view plus that seat's hand and tiles (:class:`~.engine.views.SeatView`);
a prompt lists legal actions whose JSON objects the engine caches and shares. Encoding
the public view once per delivery, each action object once, and splicing the texts gives
exactly the text that encoding every message whole gives, at a fraction of the cost.

>>> encoder = Encoder()
>>> public = {"viewer": None, "round": 2}
>>> seat = SeatView(public)
>>> seat.update(viewer=1, hand=["green"], tiles=[])
>>> encoder.encode({"type": "update", "view": seat, "prompt": None})
'{"type":"update","view":{"viewer":1,"round":2,"hand":["green"],"tiles":[]},"prompt":null}'
"""

from __future__ import annotations

import json
from collections import Counter
from json.encoder import encode_basestring_ascii
from typing import Any

from tyros_rules import SeatView

_NO_VIEWER = '{"viewer":null,'

dumps = json.JSONEncoder(separators=(",", ":")).encode
"""Compact JSON, as everything on the wire (one encoder, not one per call)."""

_ACTION_TEXTS: dict[int, tuple[object, str]] = {}
"""The text of each action object seen in a prompt, keyed by id() and holding the
object (so no id is reused while it is here); emptied when it grows large."""
_ACTION_TEXTS_LIMIT = 100_000


class RepeatedKey(ValueError):
    """A JSON object names a key twice: readers disagree on which value counts (Python's
    json keeps the last, others the first), so the message means nothing for sure."""


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        counts = Counter(key for key, _ in pairs)
        repeated = next(key for key, count in counts.items() if count > 1)
        raise RepeatedKey(f"the key {repeated[:32]!r} is given twice")
    return found


_strict_decoder = json.JSONDecoder(object_pairs_hook=_object_without_repeats)


def decode_frame(text: str) -> Any:
    """A client's text frame as JSON; raises :class:`RepeatedKey` (a ValueError, but a
    message the server must refuse as ``bad_message``: it is JSON) for an object that names
    a key twice, ValueError for text that is no JSON, RecursionError for nesting too deep.

    >>> decode_frame('{"type":"chat","id":1,"text":"hi"}')["type"]
    'chat'
    >>> decode_frame('{"type":"action","id":1,"type":"chat"}')
    Traceback (most recent call last):
    tyros_server.wire.RepeatedKey: the key 'type' is given twice
    """
    return _strict_decoder.decode(text)


def _action_text(action: dict[str, Any]) -> str:
    entry = _ACTION_TEXTS.get(id(action))
    if entry is not None and entry[0] is action:
        return entry[1]
    if len(_ACTION_TEXTS) >= _ACTION_TEXTS_LIMIT:
        _ACTION_TEXTS.clear()
    text = dumps(action)
    _ACTION_TEXTS[id(action)] = (action, text)
    return text


def _members(parts: list[tuple[str, str]]) -> str:
    return "{" + ",".join(f"{encode_basestring_ascii(key)}:{text}" for key, text in parts) + "}"


class Encoder:
    """Encodes the messages of one delivery: a message sent to many (the same object) is
    encoded once, and so is a public view, whether sent to spectators or extended by a
    seat's view."""

    __slots__ = ("_texts",)

    def __init__(self) -> None:
        # Keyed by id(), holding the object too: no id is reused while the encoder lives.
        self._texts: dict[int, tuple[object, str]] = {}

    def encode(self, message: dict[str, Any]) -> str:
        """The message's text (a public view is a message here too: encoded once)."""
        entry = self._texts.get(id(message))
        if entry is not None and entry[0] is message:
            return entry[1]
        text = self._update(message) if message.get("type") == "update" else dumps(message)
        self._texts[id(message)] = (message, text)
        return text

    def _update(self, message: dict[str, Any]) -> str:
        parts = []
        for key, value in message.items():
            if key == "view" and isinstance(value, SeatView):
                text = self._seat_view(value)
            elif key == "view" and isinstance(value, dict):
                text = self.encode(value)  # a public view: the seats' views share its text
            elif key == "prompt" and isinstance(value, dict):
                text = self._prompt(value)
            else:
                text = dumps(value)
            parts.append((key, text))
        return _members(parts)

    def _prompt(self, prompt: dict[str, Any]) -> str:
        legal = prompt.get("legal")
        if not isinstance(legal, list) or not all(isinstance(a, dict) for a in legal):
            return dumps(prompt)
        return _members(
            [
                (
                    key,
                    "[" + ",".join(map(_action_text, legal)) + "]"
                    if key == "legal"
                    else dumps(value),
                )
                for key, value in prompt.items()
            ]
        )

    def _seat_view(self, shown: SeatView) -> str:
        public = shown.public
        text = self.encode(public)
        keys = list(shown)
        count = len(public)
        if not text.startswith(_NO_VIEWER) or len(keys) == count or keys[:count] != list(public):
            return dumps(shown)  # not built as views are: encode it whole
        own = dumps({key: shown[key] for key in keys[count:]})
        viewer = dumps(shown["viewer"])
        return f'{{"viewer":{viewer},{text[len(_NO_VIEWER) : -1]},{own[1:]}'
