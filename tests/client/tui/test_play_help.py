"""``tyros-play --help`` explains every option and states the defaults a player relies on."""

from __future__ import annotations

import re

import pytest
from tyros_client.play import parse_args


def test_the_help_explains_every_option_and_its_defaults(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # one line an option
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    lines = capsys.readouterr().out.splitlines()
    said: dict[str, str] = {}
    for at, line in enumerate(lines):
        if not re.match(r"  --\w", line):
            continue
        invocation, _, words = line.strip().partition("  ")
        if not words and at + 1 < len(lines) and lines[at + 1].startswith(" " * 20):
            words = lines[at + 1]  # (a long invocation: its help on the next line)
        said[invocation.split()[0]] = words.strip()
    assert len(said) >= 10
    assert all(said.values()), said  # every option has words
    assert "default: 3" in said["--bots"]
    assert "default: 60" in said["--trade-seconds"]
    assert "first" in said["--setup"] and "variable" in said["--setup"]
    assert "the default" in said["--setup"]
