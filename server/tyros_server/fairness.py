"""The proof of a fair deal: a commitment to the seed shown from the start, the seed and
its salt revealed at the end (``tyros-server verify`` checks them against the record)."""

from __future__ import annotations

import hashlib
from typing import Any


def seed_commitment(seed: int, salt: str) -> str:
    """What every player is shown when the game starts, before any card is dealt: the
    SHA-256 of the seed and a secret salt, so that neither can change unseen (the salt
    keeps the seed from being found by trying seeds). Both are revealed at the end.

    >>> seed_commitment(42, "00ff")[:16]
    '49e9c20f0344bc84'
    """
    return hashlib.sha256(f"tyros-seed:{seed}:{salt}".encode()).hexdigest()


def fairness(seed: int, salt: str, finished: bool) -> dict[str, Any]:
    """What a table shows of its deal: the commitment from the start, the seed and salt
    once the game is over (nothing for a table from before commitments, with no salt)."""
    if not salt:
        return {}
    out: dict[str, Any] = {"commitment": seed_commitment(seed, salt)}
    if finished:
        out.update(seed=seed, salt=salt)
    return out
