"""The engine's exception tree: everything it raises derives from :class:`EngineError`."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Stable codes for why an action was refused (they travel in protocol errors)."""

    MALFORMED = "malformed_action"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    ILLEGAL = "illegal_action"
    CANNOT_AFFORD = "cannot_afford"
    TRADE_ALREADY_TRIED = "trade_already_tried"


class EngineError(ValueError):
    """Root of the engine's errors."""


class IllegalActionError(EngineError):
    """An action that the rules do not allow now. The state is left unchanged."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalActionError({self.reason.value!r}, {self.message!r})"


class RecordError(EngineError):
    """A game record that cannot be read or replayed."""
