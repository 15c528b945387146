"""The boundaries docs/architecture.md draws: `engine` imports nothing of the project's other packages and
reads no catalogue; `words` imports `engine` only; `render` imports `engine` and `words`; only `bot` and
`fakediscord` import `discord`; `fakediscord` knows nothing of the game, and the bot uses it only in the
sandbox, but for Discord's rules, which `turista commands check` holds the registration to as the fake does
(`fakediscord.spec`, `fakediscord.limits`, `fakediscord.locales`, from `bot/commands` only). Inside `bot`,
imports flow one way: no module imports, even for type hints or inside a function, a module that imports it
back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = {"engine", "words", "render", "bot"}
FORBIDDEN = {
    "engine": {"words", "render", "bot", "discord", "fakediscord"},
    "words": {"render", "bot", "discord", "fakediscord"},
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


@pytest.mark.parametrize("package", ["words", "render", "bot"])
def test_the_engines_readers_use_its_front_door_only(package: str) -> None:
    """`engine/__init__.py` exports what they need: none reaches into the engine's modules."""
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module] + (
                    [f"engine.{alias.name}" for alias in node.names] if node.module == "engine" else []
                )
            inside = [n for n in names if n.startswith("engine.") and n.split(".")[1] in ENGINE_MODULES]
            assert not inside, f"{path.relative_to(ROOT)} imports {inside}"


ENGINE_MODULES = {p.stem for p in (ROOT / "engine").glob("*.py")} | {"ai"}


def test_the_engine_reads_no_catalogue() -> None:
    """The engine speaks in codes and numbers: the texts (data/i18n) are read by `words` and the readers."""
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            assert not (isinstance(node, ast.Constant) and node.value == "i18n"), path.relative_to(ROOT)


# The fake's modules that hold Discord's rules, not the fake: the offline check of the registration shares them.
DISCORD_RULES = {"fakediscord.spec", "fakediscord.limits", "fakediscord.locales"}


def fakediscord_modules(path: Path) -> set[str]:
    """The modules of fakediscord `path` imports (`from fakediscord import limits`: fakediscord.limits)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names if alias.name.split(".")[0] == "fakediscord"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "fakediscord":
            out |= {f"fakediscord.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("fakediscord."):
            out.add(str(node.module))
    return out


def test_the_bot_uses_the_fake_discord_only_in_the_sandbox() -> None:
    for path in sorted((ROOT / "bot").rglob("*.py")):
        where = path.relative_to(ROOT).parts
        if "sandbox" in where:
            continue
        allowed = DISCORD_RULES if where[:2] == ("bot", "commands") else set()
        assert fakediscord_modules(path) <= allowed, path.relative_to(ROOT)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str) -> dict[str, set[str]]:
    """Every module of `package` -> the modules of `package` it imports anywhere in its text (at the top,
    inside a function or under TYPE_CHECKING alike: a cycle hidden in a type hint is still a cycle of design)."""
    paths = {module_name(p): p for p in (ROOT / package).rglob("*.py")}
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
                # `from bot import router` imports the module bot.handlers.router, not only the package.
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


def bot_import_graph() -> dict[str, set[str]]:
    return import_graph("bot")


def test_bot_modules_import_each_other_without_cycles() -> None:
    graph = bot_import_graph()
    assert {"bot.client", "bot.table.session", "bot.handlers.router", "bot.commands.game"} <= graph.keys()
    assert "bot.table.sessions" in graph["bot.client"]  # the graph sees plain imports
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def test_engine_modules_import_each_other_without_cycles() -> None:
    """The package's __init__ (its front door) imports the rules; none of them imports the front door."""
    graph = import_graph("engine")
    assert "engine.ai.hard.worth" in graph and "engine.ai.landing" in graph["engine.ai.hard.worth"]
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


def below(graph: dict[str, set[str]], name: str) -> set[str]:
    """Every module of `bot` that `name` imports, directly or through others."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def wing(graph: dict[str, set[str]], prefix: str) -> list[str]:
    return sorted(name for name in graph if name == prefix or name.startswith(prefix + "."))


def test_the_table_knows_no_discord_and_nothing_above_it() -> None:
    """`bot.table` is a game at a table without Discord: it imports no `discord`, and nothing of the face, the
    handlers, the commands or the client (the face is handed to it, `bot.table.face`)."""
    graph = bot_import_graph()
    above = ("bot.face", "bot.handlers", "bot.commands", "bot.client", "bot.app", "bot.sandbox", "bot.pictures")
    for name in wing(graph, "bot.table"):
        path = ROOT / (name.replace(".", "/") + ".py")
        if not path.exists():
            path = ROOT / name.replace(".", "/") / "__init__.py"
        assert not imported_packages(path) & {"discord", "aiohttp"}, name
        bad = sorted(m for m in below(graph, name) if m.startswith(above))
        assert not bad, (name, bad)


def test_the_face_knows_no_handler_and_the_client_no_handler_either() -> None:
    """The face shows tables; what a click does is the handlers': neither the face nor the client (which gets its
    commands and component handler from `bot.app`) imports them."""
    graph = bot_import_graph()
    handlers = ("bot.handlers", "bot.commands", "bot.app")
    for name in [*wing(graph, "bot.face"), *wing(graph, "bot.pictures"), "bot.client"]:
        bad = sorted(m for m in below(graph, name) if m.startswith(handlers))
        assert not bad, (name, bad)


def test_handlers_do_not_import_one_another() -> None:
    """Each handler module stands on its own; what they share is `acting` (and the `registry` they declare their
    verbs in); only the router imports them all."""
    graph = bot_import_graph()
    shared = {"bot.handlers", "bot.handlers.acting", "bot.handlers.registry", "bot.handlers.router"}
    handlers = set(wing(graph, "bot.handlers")) - shared
    assert {"bot.handlers.lobby", "bot.handlers.play", "bot.handlers.menus", "bot.handlers.trades"} <= handlers
    for name in sorted(handlers | {"bot.handlers.acting", "bot.handlers.registry"}):
        bad = sorted(graph[name] & handlers)
        assert not bad, (name, bad)


# discord.py's private attributes and undocumented modules the bot reaches for on its hot path.
PRIVATE_MODULES = ("discord.http", "discord.webhook", "discord.state", "discord.gateway")
PRIVATE_ATTRIBUTES = {"_connection", "_session", "_response_type", "_state", "_http"}


def test_discord_pys_private_api_is_used_in_the_adapter_only() -> None:
    adapter = ROOT / "bot" / "face" / "adapter.py"
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path == adapter or "store" in path.relative_to(ROOT).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(PRIVATE_MODULES), (path.relative_to(ROOT), node.module)
            if isinstance(node, ast.Attribute) and node.attr in PRIVATE_ATTRIBUTES:
                owner = node.value
                assert isinstance(owner, ast.Name) and owner.id == "self", (path.relative_to(ROOT), node.attr)


def test_the_store_is_reached_from_async_code_through_storage_only() -> None:
    """Reads and writes of the store each go one way, chosen once (`bot.table.storage`): no other module hands a
    store call to a thread of its own choosing."""
    storage = ROOT / "bot" / "table" / "storage.py"
    for path in sorted((ROOT / "bot").rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if path == storage or "store" in parts or "sandbox" in parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("to_thread", "run_in_executor") and node.args:
                first = ast.unparse(node.args[1 if node.func.attr == "run_in_executor" else 0])
                assert "store" not in first.lower() or first == "Store", (path.relative_to(ROOT), first)


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
