"""``python -m tyros_protocol schema`` prints the schema, and a reader that stops early
(``| head``) gets no traceback."""

from __future__ import annotations

import json
import subprocess
import sys


def test_the_schema_command_prints_json() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tyros_protocol", "schema"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "$defs" in json.loads(done.stdout)


def test_a_closed_pipe_is_quiet() -> None:
    command = f"'{sys.executable}' -m tyros_protocol schema | head -n 1"
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"], capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "{\n" and done.stderr == "", done.stderr
    assert done.returncode == 0
