"""The build: a wheel (``pip install .``) compiles the search's hot path with mypyc.

The modules in :data:`COMPILED` run compiled, the same decisions faster (docs/bots.md,
"ismcts"). An editable install (``pip install -e .``) stays plain Python, so that an edit
takes effect at once; so does a build with ``TYROS_PURE=1``. Without mypyc or a C compiler,
or if compiling fails, the wheel is plain Python: ``pip install -v .`` shows why. Everything
else about the project is in ``pyproject.toml``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import Distribution, Extension, setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tyros_build import EDITABLE, pure  # (beside this file, not installed)

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
    "client/tyros_client/bots/outlook.py",
    "client/tyros_client/bots/search.py",
]
"""What a search spends its time in (a profile of ``bench/bots.py speed``). A class defined
here may not be subclassed by plain-Python code, nor subclass a plain-Python class (mypyc's
native classes): why the ``ismcts`` strategy and its settings are not compiled."""
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
        # An editable build finalizes this command before it is told it is editable: the
        # backend (tyros_build.py) says so first.
        if self.editable_mode or os.environ.get(EDITABLE) == "1":
            return False
        if pure():
            _say("TYROS_PURE is set: plain Python, nothing compiled")
            return False
        return True

    def run(self) -> None:
        if not self.extensions:  # (editable or pure: nothing compiled earlier may stay)
            self._remove_built()
            return
        made = self._compiled()
        if made is None or set(made) != {extension.name for extension in self.extensions}:
            if made is not None:
                _say("mypyc named its modules otherwise: plain Python, nothing compiled")
            self._remove_built()
            self.extensions = []
            return
        for extension in self.extensions:
            for field, value in vars(made[extension.name]).items():
                if not field.startswith("_"):  # (setuptools keeps its own state in _fields)
                    setattr(extension, field, value)
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
        # A compiled module left from an earlier build would be packed (or, in place,
        # imported) instead of the sources; a module's without the shared one cannot load.
        for name in _extension_names():
            path = self.get_ext_fullpath(name)
            if os.path.exists(path):
                os.remove(path)


class MaybeCompiled(Distribution):
    def has_ext_modules(self) -> bool:
        # Asked before build_ext lists them: build_ext must always run (to compile, or to
        # clear what an earlier build compiled), so every wheel is tagged for this
        # interpreter and platform.
        return True


setup(cmdclass={"build_ext": CompilingBuild}, distclass=MaybeCompiled)
