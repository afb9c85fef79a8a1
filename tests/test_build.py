"""The build backend (``tyros_build.py``): mypy is asked for only where a build compiles,
and an editable build compiles nothing. (That a wheel compiles: tests/bench/test_searches.py.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytest.importorskip("setuptools")

SOURCES = ["setup.py", "pyproject.toml", "tyros_build.py", "MANIFEST.in", "README.md"]
PACKAGES = ["protocol", "rules", "server", "client"]


def project_copy(tmp_path: Path) -> Path:
    """The project's build files and packages, copied: a build here writes nothing (no
    egg-info, no compiled module) into the tree the tests run from."""
    copy = tmp_path / "project"
    copy.mkdir()
    for name in SOURCES:
        shutil.copy2(ROOT / name, copy / name)
    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info")
    for name in PACKAGES:
        shutil.copytree(ROOT / name, copy / name, ignore=skip)
    return copy


def backend(code: str, tmp_path: Path, **env: str) -> Any:
    """What ``code`` (a call of the backend's, ``b``) returns, run as pip runs a backend: in
    a process of its own, a copy of the project its working directory."""
    script = f"import json, tyros_build as b; print('\\n' + json.dumps({code}))"
    copy = tmp_path / "project" if (tmp_path / "project").exists() else project_copy(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy), "TYROS_PURE": "", **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def test_only_a_compiling_wheel_asks_for_mypy(tmp_path: Path) -> None:
    wheel, editable = backend(
        "[b.get_requires_for_build_wheel(), b.get_requires_for_build_editable()]", tmp_path
    )
    pure = backend("b.get_requires_for_build_wheel()", tmp_path, TYROS_PURE="1")
    assert isinstance(wheel, list) and isinstance(editable, list) and isinstance(pure, list)
    assert any(need.startswith("mypy") for need in wheel)
    assert not any(need.startswith("mypy") for need in editable + pure)


def test_an_editable_build_tells_setup_py_so_and_compiles_nothing(tmp_path: Path) -> None:
    seen = backend(
        "[b.build_meta.__setattr__('build_editable', lambda *a: b.os.environ.get(b.EDITABLE)),"
        " b.build_editable('.'), b.os.environ.get(b.EDITABLE)][1:]",
        tmp_path,
    )
    assert seen == ["1", None], "the flag is set during the build, and only then"
    # What an editable build runs of setup.py: build_ext in place, under the flag.
    command = [sys.executable, "setup.py", "-q", "build_ext", "--inplace"]
    env = {**os.environ, backend("b.EDITABLE", tmp_path): "1", "TYROS_PURE": ""}
    copy = tmp_path / "project"
    done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "mypyc" not in done.stdout + done.stderr
    assert not list(copy.glob("*/tyros_*/**/*.so")), "a compiled module would shadow a source"
