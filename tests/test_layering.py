"""The packages depend one way: protocol <- rules <- {server, client}.

- ``tyros_protocol`` (the board, the cards, the wire messages) imports none of the others;
- ``tyros_rules`` (the game: state, legality, scoring, views, records) imports only the
  protocol, and is pure: no I/O, asyncio, pydantic or wire messages;
- ``tyros_server`` (the session, the shell) never imports ``tyros_client`` (takeover bots
  are loaded by name, see ``tyros_server.cli.load_strategy``);
- ``tyros_client`` never imports ``tyros_server``, but for the launcher that starts a
  private server (``tyros_client.play``): a client or bot knows the rules from
  ``tyros_rules`` alone;
- the bots (``tyros_client.bots``) use the rules only through ``tyros_rules`` itself, its
  public API, never its modules;
- in the client, only the terminal client (``tyros_client.tui``) and ``tyros-play``, which
  opens it, import the terminal client or prompt-toolkit: the session, the words, the bot
  client, reviews and hints work without a terminal;
- no module of a package imports, through others, itself (type-only imports count: the
  widgets see the screen through an interface, not the application that builds them).

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
    package = path.relative_to(root).parts[1:-1]  # e.g. ("tyros_server", "session")
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


def test_the_protocol_imports_none_of_the_others() -> None:
    assert (
        offending("protocol/tyros_protocol", ("tyros_rules", "tyros_server", "tyros_client")) == []
    )


def test_the_rules_import_only_the_protocol() -> None:
    assert offending("rules/tyros_rules", ("tyros_server", "tyros_client")) == []


def test_no_client_module_but_the_launcher_imports_the_server() -> None:
    found = [
        line
        for line in offending("client/tyros_client", ("tyros_server",))
        if not line.startswith("client/tyros_client/play.py")
    ]
    assert found == []


def test_the_server_never_imports_the_client() -> None:
    assert offending("server/tyros_server", ("tyros_client",)) == []


def test_the_rules_are_pure() -> None:
    impure = (
        "asyncio",
        "websockets",
        "pydantic",
        "sqlite3",
        "socket",
        "tyros_protocol.messages",
    )
    assert offending("rules/tyros_rules", impure) == []


def test_the_bots_use_only_the_rules_public_api() -> None:
    private = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path in modules("client/tyros_client/bots")
        for module, _names in imports(path)
        if _under(module, "tyros_rules") and module != "tyros_rules"
    ]
    assert private == []


TERMINAL = ("tyros_client.tui", "prompt_toolkit")
"""What only the terminal client needs."""


def test_only_the_terminal_client_imports_the_terminal() -> None:
    found = [
        line
        for line in offending("client/tyros_client", TERMINAL)
        if not line.startswith(("client/tyros_client/tui/", "client/tyros_client/play.py"))
    ]
    assert found == []


def test_the_client_never_imports_the_servers_command_line() -> None:
    assert offending("client/tyros_client", ("tyros_server.cli",)) == []


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).parts[1:]
    return ".".join((*parts[:-1], path.stem) if path.name != "__init__.py" else parts[:-1])


def circles(package_dir: str, root: Path = ROOT) -> list[list[str]]:
    """The import circles among the modules under ``package_dir`` (a package importing its
    own ``__init__``'s names is no circle: the package is read first)."""
    paths = modules(package_dir, root)
    names = {module_name(path, root) for path in paths}
    edges: dict[str, set[str]] = {}
    for path in paths:
        here = module_name(path, root)
        targets = edges.setdefault(here, set())
        for module, imported in imports(path, root):
            for name in (f"{module}.{n}" for n in imported):
                if name in names:
                    targets.add(name)
            if module in names and not here.startswith(module + "."):
                targets.add(module)
        targets.discard(here)
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                found.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


@pytest.mark.parametrize(
    "package",
    ["protocol/tyros_protocol", "rules/tyros_rules", "server/tyros_server", "client/tyros_client"],
)
def test_no_package_has_an_import_circle(package: str) -> None:
    assert circles(package) == []


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
