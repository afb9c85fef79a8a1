"""The packages depend one way: the client on the server, the server on the protocol.

- ``tyros_protocol`` (the board, the cards, the wire messages) imports neither
  ``tyros_server`` nor ``tyros_client``;
- ``tyros_server`` (the engine, the session, the shell) never imports ``tyros_client``
  (takeover bots are loaded by name, see ``tyros_server.cli.load_strategy``);
- the engine (``tyros_server.engine``) is pure: nothing else of ``tyros_server``, and no
  I/O, asyncio or pydantic;
- the bots (``tyros_client.bots``) use the engine only through ``tyros_server.engine``
  itself, its public API, never its modules.

Every module is read with :mod:`ast`, so an import inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules(package_dir: str, root: Path = ROOT) -> list[Path]:
    found = sorted((root / package_dir).rglob("*.py"))
    assert found, package_dir
    return found


def imports(path: Path, root: Path = ROOT) -> list[tuple[str, tuple[str, ...]]]:
    """(module, names taken from it) of every import in ``path``, relative ones resolved."""
    package = path.relative_to(root).parts[1:-1]  # e.g. ("tyros_server", "engine")
    if path.name != "__init__.py":
        package = (*package, path.stem)
    out: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level]
                module = ".".join((*base, node.module) if node.module else base)
            else:
                module = node.module or ""
            out.append((module, tuple(alias.name for alias in node.names)))
    return out


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def offending(package_dir: str, forbidden: tuple[str, ...], root: Path = ROOT) -> list[str]:
    """The imports under ``package_dir`` of a module under one of ``forbidden``."""
    out = []
    for path in modules(package_dir, root):
        for module, names in imports(path, root):
            # ``from tyros_server import app`` imports tyros_server.app.
            reached = [module, *(f"{module}.{name}" if module else name for name in names)]
            if any(_under(name, prefix) for name in reached for prefix in forbidden):
                out.append(f"{path.relative_to(root)} imports {module} {names}")
    return out


def test_the_protocol_imports_neither_server_nor_client() -> None:
    assert offending("protocol/tyros_protocol", ("tyros_server", "tyros_client")) == []


def test_the_server_never_imports_the_client() -> None:
    assert offending("server/tyros_server", ("tyros_client",)) == []


def test_the_engine_is_pure() -> None:
    impure = (
        "tyros_client",
        "tyros_server.app",
        "tyros_server.session",
        "tyros_server.cli",
        "tyros_server.storage",
        "asyncio",
        "websockets",
        "pydantic",
        "sqlite3",
        "socket",
        "tyros_protocol.messages",
    )
    assert offending("server/tyros_server/engine", impure) == []


def test_the_bots_use_only_the_engines_public_api() -> None:
    private = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in modules("client/tyros_client/bots")
        for module, _names in imports(path)
        if _under(module, "tyros_server") and module != "tyros_server.engine"
    ]
    assert private == []


@pytest.mark.parametrize(
    "source",
    [
        "from tyros_client.bots import make_bot",
        "import tyros_client",
        "def f():\n    from tyros_client import bots\n",
        "from .. import tyros_client",
    ],
)
def test_the_check_sees_every_form_of_import(tmp_path: Path, source: str) -> None:
    package = tmp_path / "server" / "tyros_server"
    package.mkdir(parents=True)
    (package / "probe.py").write_text(source, "utf-8")
    assert offending("server/tyros_server", ("tyros_client",), tmp_path) != []
    (package / "probe.py").write_text("from .engine import view\nimport json\n", "utf-8")
    assert offending("server/tyros_server", ("tyros_client",), tmp_path) == []
