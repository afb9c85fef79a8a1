"""A table's options as a person writes them on a command line (``tyros-server``,
``tyros-client``), parsed for argparse."""

from __future__ import annotations

import argparse

MIN_DECISION, MAX_DECISION = 5, 3600
"""The free seconds a table's clock may give each decision."""
MIN_RESERVE, MAX_RESERVE = 0, 36_000
"""The seconds a table's clock may give each seat's reserve."""
MIN_TRADE_SECONDS, MAX_TRADE_SECONDS = 5, 600
"""The seconds a table may give the seats asked to answer a trade offer."""


def clock_setting(text: str) -> tuple[int, int] | None:
    """``--clock``'s value: ``DECISION+RESERVE`` seconds (``30+300``), or ``off``.

    >>> clock_setting("30+300"), clock_setting("45"), clock_setting("off")
    ((30, 300), (45, 0), None)
    """
    if text.strip().lower() in ("off", "no", "none"):
        return None
    decision, _, reserve = text.partition("+")
    try:
        setting = (int(decision), int(reserve or 0))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"DECISION+RESERVE seconds (e.g. 30+300) or off, not {text!r}"
        ) from None
    if (
        not MIN_DECISION <= setting[0] <= MAX_DECISION
        or not MIN_RESERVE <= setting[1] <= MAX_RESERVE
    ):
        raise argparse.ArgumentTypeError(
            f"{MIN_DECISION} to {MAX_DECISION} seconds a decision, "
            f"a reserve of {MIN_RESERVE} to {MAX_RESERVE}"
        )
    return setting
