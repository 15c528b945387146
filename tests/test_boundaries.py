"""The boundaries docs/architecture.md draws: `engine` imports nothing of `render` or `bot`; `render`
imports `engine` only; only `bot` and `fakediscord` import `discord`; `fakediscord` knows nothing of the game,
and the bot uses it only in the sandbox. Inside `bot`, imports flow one way: no module imports, even for type
hints or inside a function, a module that imports it back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = {"engine", "render", "bot"}
FORBIDDEN = {
    "engine": {"render", "bot", "discord", "fakediscord"},
    "render": {"bot", "discord", "fakediscord"},
    "fakediscord": GAME,
}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_stay_inside_their_boundary(package: str) -> None:
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = imported_packages(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_engine_does_no_io_but_reading_data() -> None:
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if path.name in ("simulate.py", "__main__.py"):
            continue  # command-line entry points print their results
        names = imported_packages(path)
        assert not names & {"socket", "sqlite3", "random", "time", "datetime", "urllib", "asyncio"}, path


def test_the_bot_uses_the_fake_discord_only_in_the_sandbox() -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if "sandbox" in path.relative_to(ROOT).parts:
            continue
        assert "fakediscord" not in imported_packages(path), path.relative_to(ROOT)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def bot_import_graph() -> dict[str, set[str]]:
    """Every module of `bot` -> the modules of `bot` it imports anywhere in its text (at the top, inside a
    function or under TYPE_CHECKING alike: a cycle hidden in a type hint is still a cycle of design)."""
    paths = {module_name(p): p for p in (ROOT / "bot").rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                # `from bot import router` imports the module bot.router, not only the package.
                targets |= {f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base for alias in node.names}
        graph[name] = {t for t in targets if t in paths and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node):], node]
        if node in done:
            return None
        path.append(node)
        for target in sorted(graph[node]):
            cycle = visit(target)
            if cycle:
                return cycle
        path.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        cycle = visit(node)
        if cycle:
            return cycle
    return None


def test_bot_modules_import_each_other_without_cycles() -> None:
    graph = bot_import_graph()
    assert {"bot.client", "bot.session", "bot.router", "bot.commands.game"} <= graph.keys()
    assert "bot.session" in graph["bot.client"]  # the graph sees plain imports
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def test_the_client_and_sessions_know_no_handler() -> None:
    """The bottom layer: the client gets its commands and component handler from `bot.app`."""
    graph = bot_import_graph()

    def below(name: str) -> set[str]:
        seen: set[str] = set()
        todo = [name]
        while todo:
            for target in graph[todo.pop()] - seen:
                seen.add(target)
                todo.append(target)
        return seen

    handlers = {"bot.lobby", "bot.play", "bot.trades", "bot.router", "bot.commands", "bot.app"}
    for bottom in ("bot.client", "bot.session"):
        assert not below(bottom) & handlers, (bottom, sorted(below(bottom) & handlers))


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
