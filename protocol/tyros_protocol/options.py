"""A table's options as a person writes them on a command line (``tyros-server``,
``tyros-client``), parsed for argparse."""

from __future__ import annotations

import argparse


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
    if not 5 <= setting[0] <= 3600 or not 0 <= setting[1] <= 36_000:
        raise argparse.ArgumentTypeError("5 to 3600 seconds a decision, a reserve of 0 to 36000")
    return setting
