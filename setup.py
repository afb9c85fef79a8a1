"""The build: a wheel (``pip install .``) compiles the search's hot path with mypyc.

The modules in :data:`COMPILED` (the engine, the evaluation, the sampling of hidden cards
and the search) are the same typed Python, compiled to C by mypyc: every decision comes out
the same, about twice as fast (docs/benchmarks.md, "Search speed"). An editable install
(``pip install -e .``) stays plain Python, so that an edit takes effect at once; so does any
build with ``TYROS_PURE=1`` in its environment. Without mypyc or a C compiler, or if
compiling fails, the wheel is plain Python and the build says so: slower bots, nothing else.
Everything else about the project is in ``pyproject.toml``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import Distribution, Extension, setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "rules/tyros_rules/legal.py",
    "rules/tyros_rules/payments.py",
    "rules/tyros_rules/rules.py",
    "rules/tyros_rules/scoring.py",
    "rules/tyros_rules/state.py",
    "rules/tyros_rules/trades.py",
    "client/tyros_client/bots/determinize.py",
    "client/tyros_client/bots/evaluate.py",
    "client/tyros_client/bots/grouping.py",
    "client/tyros_client/bots/search.py",
]
"""What a search spends its time in (a profile of ``bench/bots.py speed``). A module here may
not define a class that a plain-Python module subclasses (mypyc's native classes)."""
GROUP = "tyros_native"
"""The shared library mypyc builds for them all (``tyros_native__mypyc``), beside a small
extension module for each."""


def _say(message: str) -> None:
    print(f"tyros build: {message}", file=sys.stderr)


def _extension_names() -> list[str]:
    modules = [path.removesuffix(".py").split("/", 1)[1].replace("/", ".") for path in COMPILED]
    return [f"{GROUP}__mypyc", *modules]


class CompilingBuild(build_ext):
    """``build_ext`` that compiles :data:`COMPILED` with mypyc, unless editable or pure.

    Many steps finalize this command (the metadata's too), so it lists the extensions by
    name only, and mypyc makes them when they are built."""

    def finalize_options(self) -> None:
        if not self._wanted():
            self.distribution.ext_modules = []
        elif not self.distribution.ext_modules:
            self.distribution.ext_modules = [Extension(n, []) for n in _extension_names()]
        super().finalize_options()

    def _wanted(self) -> bool:
        # An editable build finalizes this command before it is told it is editable: its
        # command line says so first.
        if self.editable_mode or "editable_wheel" in sys.argv:
            return False
        if os.environ.get("TYROS_PURE"):
            _say("TYROS_PURE is set: plain Python, nothing compiled")
            return False
        return True

    def run(self) -> None:
        if not self.extensions:
            return
        made = self._compiled()
        if made is None:
            self.extensions = []
            return
        for extension in self.extensions:
            vars(extension).update(vars(made[extension.name]))  # (the name is the same)
        try:
            super().run()
        except Exception as error:  # a compiler missing or failing: keep the pure wheel
            _say(f"compiling failed ({error!r}): plain Python, nothing compiled")
            self._remove_built()

    def _compiled(self) -> dict[str, Any] | None:
        try:
            from mypyc.build import mypycify
        except ImportError:
            _say("mypyc not found: plain Python, nothing compiled")
            return None
        try:
            made = mypycify(COMPILED, opt_level="3", group_name=GROUP)
        except (Exception, SystemExit) as error:  # (mypy reports a type error by exiting)
            _say(f"mypyc could not compile ({error!r}): plain Python, nothing compiled")
            return None
        return {extension.name: extension for extension in made}

    def _remove_built(self) -> None:
        for extension in self.extensions:
            path = self.get_ext_fullpath(extension.name)
            if os.path.exists(path):
                os.remove(path)  # (a module's extension without the shared one cannot load)


class Wheel(Distribution):
    def has_ext_modules(self) -> bool:
        # Asked before build_ext lists them: build_ext must run, and a wheel that may hold
        # compiled modules is tagged for this interpreter and platform.
        return not os.environ.get("TYROS_PURE")


setup(cmdclass={"build_ext": CompilingBuild}, distclass=Wheel)
