"""Loading the scripts under ``bench/`` (not a package) as modules, for their tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str) -> ModuleType:
    """``bench/NAME.py`` as the module ``NAME`` (worker processes find it by that name),
    loaded once: a second module of the same file would hide the first one's functions
    from doctest, which finds a module's examples by the module its functions name."""
    loaded = sys.modules.get(name)
    if loaded is not None and getattr(loaded, "__file__", None) == str(BENCH / f"{name}.py"):
        return loaded
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
