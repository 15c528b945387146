"""The README and docs/ say what the code does: their links lead somewhere, the commands they name exist, the
configuration table matches the settings the bot reads, the tests they cite exist, their tables stay readable,
and the invite link the bot prints is the one the guides print."""

from __future__ import annotations

import contextlib
import io
import re
import tomllib
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import discord
import pytest

from bot.invite import PERMISSIONS, invite_link
from bot.run import main as run_main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PAGE_IDS = [p.relative_to(ROOT).as_posix() for p in PAGES]
LONGEST_CELL = 300
INVITE = re.compile(r"https://discord\.com/(?:api/)?oauth2/authorize\?[^\s`)>\]]*")
FENCE = re.compile(r"^```.*?^```[^\n]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
LINK_TARGET = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def read(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def without_fences(text: str) -> str:
    """The page without its fenced blocks (code spans stay: a link's text may be code)."""
    return FENCE.sub("", text)


def code(text: str) -> Iterator[str]:
    """The page's code: each fenced block and each code span."""
    for block in FENCE.finditer(text):
        yield block.group(0)
    for span in CODE_SPAN.finditer(FENCE.sub("", text)):
        yield span.group(2)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lower-cased, punctuation dropped, spaces turned into hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link counts by its text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in FENCE.sub("", read(page)).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def table_rows(text: str) -> Iterator[list[str]]:
    """The cells of every row of every table (outside code), the separator rows left out."""
    for line in FENCE.sub("", text).splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                yield cells


def tables(text: str) -> Iterator[list[list[str]]]:
    """Each table (outside code) as its rows, header first."""
    rows: list[list[str]] = []
    for line in [*FENCE.sub("", text).splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
            if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(cells)
        elif rows:
            yield rows
            rows = []


def section(text: str, heading: str) -> str:
    """The text under `heading` up to the next heading of the same or a higher level."""
    level = len(heading) - len(heading.lstrip("#"))
    start = text.index(f"\n{heading}\n")
    following = re.compile(rf"^#{{1,{level}}}\s", re.M)
    end = following.search(text, start + len(heading) + 2)
    return text[start:end.start() if end else len(text)]


def help_of(*argv: str) -> str:
    """What `turista ARGV --help` prints, through the installed `turista` command's entry point."""
    (entry,) = metadata.entry_points(group="console_scripts", name="turista")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        entry.load()([*argv, "--help"])
    return out.getvalue()


# -- links ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_every_relative_link_points_at_a_file_and_heading_that_exist(page: Path) -> None:
    wrong: list[str] = []
    for target in LINK_TARGET.findall(without_fences(read(page))):
        if re.match(r"[a-z][a-z+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        shown = linked.relative_to(ROOT).as_posix() if linked.is_relative_to(ROOT) else str(linked)
        if not linked.exists():
            wrong.append(f"{target}: no file {shown}")
        elif anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
            wrong.append(f"{target}: no heading #{anchor} in {shown}")
    assert not wrong, wrong


def test_the_slugs_follow_githubs_rules() -> None:
    assert slug("When something goes wrong") == "when-something-goes-wrong"
    assert slug("Speed: `python bench/engine.py`") == "speed-python-benchenginepy"
    assert slug("Computer players (`engine.ai`)") == "computer-players-engineai"
    assert slug("`dificil` (es: difícil, en: hard)") == "dificil-es-difícil-en-hard"


def test_a_link_to_a_missing_heading_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n## Two words\n\n```\n# not a heading\n```\n", encoding="utf-8")
    assert anchors(page) == {"title", "two-words"}


# -- what the README and the guides name ----------------------------------------------------------------------


def test_turista_help_lists_every_command_the_pages_name() -> None:
    named: set[str] = set()
    store_named: set[str] = set()
    for page in PAGES:
        for snippet in code(read(page)):
            named |= set(re.findall(r"(?:^|[\s(`]|bin/)turista ([a-z][a-z-]*)", snippet))
            store_named |= set(re.findall(r"turista store ([a-z][a-z-]*)", snippet))
    listed = help_of()
    assert {"run", "sandbox", "store", "status"} <= named
    assert all(re.search(rf"^\s+{name}\s", listed, re.M) for name in named), (named, listed)
    store_listed = help_of("store")
    assert store_named and all(name in store_listed for name in store_named), (store_named, store_listed)


def test_the_readme_starts_with_what_a_newcomer_needs() -> None:
    first_screen = read(ROOT / "README.md").splitlines()[:40]
    text = "\n".join(first_screen)
    needs = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    assert needs == ">=3.11" and "Python 3.11 or newer" in text
    for command in ('pip install -e ".[dev]"', "python -m pytest -q", "turista sandbox"):
        assert command in text, command
    assert re.search(r"!\[[^\]]*\]\(docs/images/board-[^)]*\.png\)", text)


def test_ci_runs_the_readmes_test_command() -> None:
    readme = read(ROOT / "README.md")
    commands = [line.strip() for block in FENCE.findall(readme) for line in block.splitlines()
                if line.strip().startswith("python -m pytest")]
    assert commands == ["python -m pytest -q"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^\s+CI=true python -m pytest -q$", ci, re.M)


def command_names(cell: str) -> list[str]:
    """`/turista new`, `/roll` or `new [edition]` -> new, roll, new; `/turista season new` -> season.new: the
    command each code span names (a subcommand after its group, options left out)."""
    names = []
    for span in re.findall(r"`([^`]+)`", cell):
        words = [w for w in span.lstrip("/").split() if not w.startswith(("[", "<"))]
        if words[0] == "turista" and len(words) > 1:
            words = words[1:]
        names.append(".".join(words))
    return names


def test_command_names_read_groups_and_leave_options_out() -> None:
    assert command_names("`/turista new`, `/roll`") == ["new", "roll"]
    assert command_names("`new [edition] [time_limit]` / `kick <user>`") == ["new", "kick"]
    assert command_names("`/turista season new`, `season new`") == ["season.new", "season.new"]


@pytest.mark.parametrize("page", ["README.md", "docs/playing.md"])
def test_the_command_tables_name_the_commands_of_the_catalogues(page: str) -> None:
    commands = tomllib.loads((ROOT / "data/i18n/es/bot.toml").read_text(encoding="utf-8"))["bot"]["cmd"]
    english = tomllib.loads((ROOT / "data/i18n/en/bot.toml").read_text(encoding="utf-8"))["bot"]["cmd"]
    leaf = {key.removesuffix(".name"): name for key, name in commands.items()
            if key.endswith(".name") and not key.startswith(("opt.", "choice.")) and key != "turista.name"}
    # A subcommand's Spanish is its group's Spanish name, then its own: season.new -> temporada.nueva.
    spanish_of = {key: ".".join(leaf[".".join(key.split(".")[: k + 1])] for k in range(key.count(".") + 1))
                  for key in leaf}
    shown: dict[str, str] = {}
    for table in tables(read(ROOT / page)):
        header = [cell.lower() for cell in table[0]]
        if "spanish" not in header:
            continue
        for row in table[1:]:
            pair = zip(command_names(row[0]), command_names(row[header.index("spanish")]), strict=True)
            shown.update(pair)
    assert shown, f"no command table with a Spanish column in {page}"
    wrong = {en: es for en, es in shown.items() if spanish_of.get(en) != es or f"{en}.desc" not in english}
    assert not wrong, wrong
    groups = {key for key in spanish_of if any(other.startswith(key + ".") for other in spanish_of)}
    assert set(shown) == set(spanish_of) - groups, (set(spanish_of) - groups) ^ set(shown)


# -- configuration ----------------------------------------------------------------------------------------------


def settings_in_the_table() -> set[str]:
    table = section(read(ROOT / "docs/operations.md"), "## Configuration")
    return {name for row in table_rows(table) for name in re.findall(r"\b(?:TURISTA|DISCORD)_[A-Z_]+\b", row[0])}


def test_the_configuration_table_lists_every_setting_the_bot_reads() -> None:
    read_by_the_bot = {name for path in (ROOT / "bot").rglob("*.py")
                       for name in re.findall(r"[\"'](?:TURISTA|DISCORD)_[A-Z_]+[\"']", path.read_text())}
    read_by_the_bot = {name.strip("\"'") for name in read_by_the_bot}
    config = (ROOT / "bot" / "config.py").read_text()
    assert {"DISCORD_TOKEN", "TURISTA_DB", "TURISTA_SHARDS"} <= read_by_the_bot
    assert set(re.findall(r"\b(?:TURISTA|DISCORD)_[A-Z_]+\b", config)) <= settings_in_the_table()
    assert read_by_the_bot <= settings_in_the_table(), read_by_the_bot - settings_in_the_table()


def test_env_example_lists_every_setting_of_the_table() -> None:
    example = set(re.findall(r"^([A-Z][A-Z_]+)=", (ROOT / ".env.example").read_text(), re.M))
    assert example == settings_in_the_table(), example ^ settings_in_the_table()


# -- tests the pages cite, and tables a person can read --------------------------------------------------------


def test_every_test_the_pages_cite_exists() -> None:
    defined = {name for path in (ROOT / "tests").rglob("test_*.py")
               for name in re.findall(r"^\s*(?:async\s+)?def (test_\w+)\(", path.read_text(), re.M)}
    cited = {name for page in PAGES for name in re.findall(r"`(test_\w+)`", read(page))}
    assert len(cited) > 50
    assert cited <= defined, sorted(cited - defined)


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_no_table_cell_is_longer_than_a_few_lines(page: Path) -> None:
    long = [cell[:80] + "…" for row in table_rows(read(page)) for cell in row if len(cell) > LONGEST_CELL]
    assert not long, long


# -- the invite link ------------------------------------------------------------------------------------------


def invite_links(text: str) -> list[str]:
    return INVITE.findall(text)


def permissions_of(link: str) -> int | None:
    found = re.search(r"[?&]permissions=(\d+)", link)
    return int(found.group(1)) if found else None


def test_the_invite_permissions_are_discords_bits_for_what_the_bot_does() -> None:
    needed = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, attach_files=True,
                                 read_message_history=True, create_public_threads=True,
                                 send_messages_in_threads=True)
    assert PERMISSIONS == needed.value == 309237763072


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_every_invite_link_in_the_guides_carries_the_bots_permissions(page: Path) -> None:
    for link in invite_links(read(page)):
        assert permissions_of(link) == PERMISSIONS, link
        assert "applications.commands" in link and "scope=bot" in link, link


def test_the_admin_guides_give_the_invite_link() -> None:
    for page in ("README.md", "docs/operations.md"):
        assert invite_link() in read(ROOT / page), page


def test_the_guide_of_turista_run_without_a_token_gives_the_same_link(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert run_main([]) == 2
    links = invite_links(capsys.readouterr().err)
    assert links and all(permissions_of(link) == PERMISSIONS for link in links)
    assert invite_link() in links


# A dotted name of the project in a code span: `bot.face.publisher.Publisher.show`, `engine.apply`.
DOTTED = re.compile(r"^(?:bot|engine|render|words|fakediscord)(?:\.[A-Za-z_][A-Za-z0-9_]*)+$")


def resolve(dotted: str) -> object:
    """The module, class, function or attribute a dotted name names (ImportError / AttributeError if none)."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ImportError(dotted)


def test_the_architecture_names_functions_that_exist() -> None:
    """Every `module.function` the map of the house names (the walk of a click above all) is in the code."""
    page = ROOT / "docs" / "architecture.md"
    named = sorted({span for span in code(without_fences(read(page))) if DOTTED.match(span)})
    assert len(named) >= 20, named
    missing = []
    for name in named:
        try:
            resolve(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert not missing, missing
    steps = re.findall(r"^(\d+)\. ", read(page).split("## A click", 1)[1].split("\n## ", 1)[0], re.M)
    assert 1 <= len(steps) <= 8, steps
