"""The code stays formatted and lint-clean: CI runs ruff as part of the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, text=True, capture_output=True, check=False
    )


def test_the_code_is_formatted_by_ruff() -> None:
    done = ruff("format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_finds_nothing_to_lint() -> None:
    done = ruff("check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
