"""Typed error codes: every error the server sends carries one of these."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    # The message itself
    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    BINARY_FRAME = "binary_frame"
    UNSUPPORTED_PROTOCOL = "unsupported_protocol"
    RATE_LIMITED = "rate_limited"
    # The session
    HELLO_FIRST = "hello_first"
    ALREADY_JOINED = "already_joined"
    NO_SUCH_TABLE = "no_such_table"
    TABLE_FULL = "table_full"
    TABLE_FINISHED = "table_finished"
    NOT_FINISHED = "not_finished"
    HINTS_OFF = "hints_off"
    BAD_TOKEN = "bad_token"
    SPECTATOR = "spectator"
    NOT_STARTED = "not_started"
    STALE_VERSION = "stale_version"
    TOO_LATE = "too_late"
    TOO_MANY_CONNECTIONS = "too_many_connections"
    SEED_NOT_ALLOWED = "seed_not_allowed"
    NAME_TAKEN = "name_taken"
    TOO_MANY_TABLES = "too_many_tables"
    TOO_MANY_SPECTATORS = "too_many_spectators"
    TABLE_UNAVAILABLE = "table_unavailable"
    TABLE_PAUSED = "table_paused"
    INTERNAL = "internal_error"
    # The rules (the engine's reasons)
    MALFORMED_ACTION = "malformed_action"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    ILLEGAL_ACTION = "illegal_action"
    CANNOT_AFFORD = "cannot_afford"
    TRADE_ALREADY_TRIED = "trade_already_tried"
