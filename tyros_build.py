"""The build backend: setuptools', asking for mypy only where a build will compile.

A wheel (``pip install .``) compiles the search with mypyc (``setup.py``), so it needs mypy;
an editable install (``pip install -e .``) and a ``TYROS_PURE`` build stay plain Python and
need nothing beyond setuptools (offline too, with `--no-build-isolation`).
An editable build also says so to ``setup.py`` here, rather than ``setup.py`` guessing it
from the command line setuptools gives it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (every other hook, as setuptools has it)

MYPYC = "mypy>=1.18"
"""What compiles the search (mypyc comes with mypy)."""
EDITABLE = "TYROS_BUILDING_EDITABLE"
"""Set (to 1) while an editable build runs: ``setup.py`` compiles nothing then."""


def pure() -> bool:
    """Whether the builder asked for plain Python (``TYROS_PURE``, not empty nor ``0``)."""
    return os.environ.get("TYROS_PURE", "") not in ("", "0")


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    needed: list[str] = build_meta.get_requires_for_build_wheel(config_settings)
    return needed if pure() else [*needed, MYPYC]


@contextmanager
def _editable() -> Iterator[None]:
    """:data:`EDITABLE` set for what runs inside, and as it was afterwards."""
    before = os.environ.get(EDITABLE)
    os.environ[EDITABLE] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ[EDITABLE]
        else:
            os.environ[EDITABLE] = before


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, Any] | None = None
) -> str:
    with _editable():
        name: str = build_meta.prepare_metadata_for_build_editable(
            metadata_directory, config_settings
        )
    return name


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    with _editable():
        name: str = build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
    return name
