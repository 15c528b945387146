"""`turista sandbox`: the real bot, the fake Discord and a table in the terminal, typed or scripted."""

from __future__ import annotations

import os
import pty
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.face import layout
from bot.face.i18n import BOT
from bot.sandbox.commands import INTEGER, STRING, USER, Refusal, fold, pick, resolve, starts_a_word, typed_options
from bot.sandbox.inputs import Press, Slash, Verb, parse
from bot.sandbox.printer import KEEP_PICTURES, Printer
from bot.sandbox.table import SANDBOX, session_folder
from bot.store import Store
from fakediscord import FakeAttachment, FakeChannel, FakeGuild, FakeMessage, FakeUser

SCRIPT = Path(__file__).parent / "data" / "sandbox-short.txt"


def SANDBOX_ES(key: str, **params: object) -> str:  # noqa: N802 - reads as the catalogue it is
    return SANDBOX.text("es", f"sandbox.{key}", **params)


def sandbox(tmp_path: Path, *args: str, stdin: str | None = None) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "sandbox", "--seed", "3", "--pace", "0.05", *args],
        input=stdin, capture_output=True, text=True, timeout=180, cwd=tmp_path,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def test_scripted_sandbox_plays_a_short_game(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "sandbox", "--script", str(SCRIPT), "--out", str(out), "--seed", "3",
         "--pace", "0.05"],
        capture_output=True, text=True, timeout=180, cwd=tmp_path,
    )  # fmt: skip
    printed = done.stdout
    assert done.returncode == 0, printed + done.stderr
    # The inputs are echoed with the seat that typed them, and the bot's answers follow.
    for expected in (
        "Ana> /turista new",
        "Beto> /turista join",
        "Lupita se sentó a jugar (computadora).",
        "Ana compra Costa Rica por $8,000.",
        "Ana hipoteca Costa Rica y recibe $4,000.",
        "Beto compra Línea Aérea Americana por $20,000.",
        "Turno 3 · 🤖 Lupita",
        "Efectivo: $130,000",
    ):
        assert expected in printed, f"missing {expected!r} in:\n{printed}"
    # Buttons are numbered, mentions read as names, errors would be shown with a "?".
    assert "[1.1] Unirme" in printed and "@Ana" in printed and "\n? " not in printed
    # The session's files are in a folder of its own, named by when it started.
    (folder,) = out.iterdir()
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-\d{4}", folder.name) and f"Fotos: {folder}/" in printed
    # How many of a table's edits are printed, each with its board, depends on how quickly they follow one another;
    # each of the three turns' tables is printed at least once, with its own board.
    pictures = sorted(folder.glob("*.png"))
    assert len(pictures) >= 3
    for path in pictures:
        assert f"🖼  {path}" in printed
        assert path.read_bytes().startswith(b"\x89PNG")
    assert (folder / "sandbox.db").exists() and (folder / "bot.log").exists()


def test_sandbox_refuses_bad_arguments(tmp_path: Path) -> None:
    for args in (["--players", "7"], ["--edition", "nope"], ["--script", str(tmp_path / "missing.txt")],
                 ["--manager", "Zoe"]):
        done = subprocess.run(
            [sys.executable, "-m", "bot", "sandbox", *args], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2 and "error" in done.stderr


TRAPS = """\
/turista nueva
/turista computadora fácil
as Beto
/turista unirme
Salir
/turista join
as Ana
/turista empezar
1.1
9.9
3
/bid abc
/pujar cantidad:12x
/pujar NINES
/turista addbot experto
/roll now
/mortgage
/tirar
look
look
/quit
/turista end
""".replace("NINES", "9" * 400)


def test_the_sandbox_has_no_traps(tmp_path: Path) -> None:
    script = tmp_path / "traps.txt"
    script.write_text(TRAPS)
    code, printed = sandbox(tmp_path, "--script", str(script), "--out", str(tmp_path / "out"))
    assert code == 0, printed
    lines = printed.splitlines()
    # Quitting is announced, and is /quit: the lines after it are never read.
    assert "Para salir: /quit o Ctrl+D («Salir» es el botón para dejar la mesa)." in lines[:4]
    assert lines[-1] == "Hasta luego." and "Ana> /turista end" not in printed
    # Spanish command names and the accented choice, as a Spanish Discord client shows them.
    assert "Lupita se sentó a jugar (computadora)." in printed
    # "Salir" is the Leave button: Beto leaves the table and the session goes on.
    after_salir = printed.split("Beto> Salir", 1)[1]
    left = after_salir.split("Beto> ", 1)[0]
    assert "Jugadores (2/6)" in left and "Beto" not in left.replace("Beto>", "")
    # Buttons that went away, numbers that never existed, and a bare number, in the player's words.
    assert "? El botón «Unirme» ya no está: ese mensaje cambió. Usa los botones que se ven ahora." in lines
    assert "? No hay ningún botón 9.9 en pantalla." in lines
    assert any(line.startswith("? Los botones se pulsan por su número, como 12.3") and "«3»" in line for line in lines)
    # Malformed options answer as Discord's client would, never with Python's words.
    assert "? La opción «cantidad» es un número entero: «abc» no lo es." in lines
    assert "? La opción «cantidad» es un número entero: «12x» no lo es." in lines
    assert "? La opción «cantidad» es como máximo 9,007,199,254,740,991." in lines  # 400 digits: no OverflowError
    assert any(line.startswith("? La opción «nivel» no admite «experto»; elige: fácil, normal") for line in lines)
    assert "? El comando /tirar no lleva nada más: sobra «now»." in lines
    assert "? Falta la opción «título» de /hipotecar." in lines
    assert "Ana tira" in printed and "invalid literal" not in printed and "Traceback" not in printed
    assert "custom_id" not in printed and "turista:" not in printed
    # `look` shows the board again from the file it is already in.
    looks = printed.split("Ana> look\n")[1:]
    shown = [next(line for line in chunk.splitlines() if "🖼" in line) for chunk in looks]
    assert len(shown) == 2 and shown[0] == shown[1]
    assert len(list((tmp_path / "out").glob("*/*.png"))) == len({line for line in lines if "🖼" in line})


# A layout table comes after its turn's ping, a message of its own (`bot.face.layout`): the messages after it are
# numbered one further than beside an embed table (a discord.py without LayoutView).
PING = int(layout.SUPPORTED)
TABLE, AUCTION = 3 + PING, 4 + PING

RECORDED = f"""\
/turista new
as Beto
/turista join
as Ana
1.5
{TABLE}.1
{TABLE}.2
{AUCTION}.4
12000
as Beto
{AUCTION}.5
"""


def test_a_recorded_session_replays_exactly_by_button_numbers(tmp_path: Path) -> None:
    """Typed (Ctrl+D to end) with --record, then replayed with --script: the same buttons, the same game."""
    (tmp_path / "typed").mkdir()
    (tmp_path / "replayed").mkdir()
    record = tmp_path / "session.txt"
    code, typed = sandbox(tmp_path, "--out", "typed", "--record", str(record), stdin=RECORDED)
    assert code == 0, typed
    assert record.read_text() == RECORDED  # form answers included
    assert f"[{AUCTION}.4] Otra cantidad…" in typed and "Ana gana la subasta" in typed, typed
    code, replayed = sandbox(tmp_path, "--out", "replayed", "--script", str(record))
    assert code == 0, replayed
    assert "\n? " not in typed + replayed
    (typed_db,), (replayed_db,) = ((tmp_path / name).glob("*/sandbox.db") for name in ("typed", "replayed"))
    with Store(typed_db, create=False) as a, Store(replayed_db, create=False) as b:
        (first,), (second,) = a.game_ids(), b.game_ids()
        assert a.game(first).version == b.game(second).version >= 4
        assert a.game(first).snapshot == b.game(second).snapshot


def test_private_panels_are_printed_after_each_choice(tmp_path: Path) -> None:
    """A choice in a private menu printed the panel as it was before the choice; the change never showed.
    Here each panel is read again after each choice: the house rules, Mortgage…, Lift mortgage…, Build…, the
    trade builder and the confirmation of /turista end. (With seed 18 of the classic edition and two titles
    dealt each, Ana starts and holds a whole block.)"""
    script = tmp_path / "panels.txt"
    script.write_text(PANELS)
    code, printed = sandbox(tmp_path, "--seed", "18", "--script", str(script), "--out", str(tmp_path / "out"))
    assert code == 0 and "\n? " not in printed, printed
    after = answers(printed)

    def panel(line: str, number: int) -> str:
        shown = message(after[line], number)
        assert "(solo tú) (editado)" in shown.splitlines()[0], shown
        return shown

    rules = panel("elige 2.3 Sin tiempo", 2)
    assert "Sin tiempo por decisión" in rules and "Tiempo por decisión: 120 s" not in rules.split("[2.1]")[0]
    assert "Reglas: Repartir 2 títulos al inicio" in panel("elige 2.4 Repartir", 2)
    table = 4 + PING  # the turn's ping comes before a layout table
    mortgage = panel(f"elige {table + 1}.1 valencia", table + 1)  # "valencia" names Ronda de Valencia: a word will do
    assert "Ana hipoteca Ronda de Valencia" in mortgage
    assert f"[{table + 1}.1] ▾ ¿Qué título hipotecas?: Plaza Lavapiés" in mortgage  # no longer offers that one
    assert "Ana levanta la hipoteca de Ronda de Valencia" in panel(f"elige {table + 2}.1 valencia", table + 2)
    build = panel(f"elige {table + 3}.1 valencia", table + 3)
    assert "Ana construye en Ronda de Valencia" in build and "Café: 1 casa en cada título" not in build
    assert "Trato con Beto" in panel(f"elige {table + 4}.1 Beto", table + 4)
    assert "Pides: Paseo de la Castellana" in panel(f"elige {table + 4}.2 castellana", table + 4)
    assert "La partida se terminó por decisión de Ana." in panel("Sí, terminar la partida", table + 5)
    # Controls are numbered row by row as they are on screen.
    assert f"   [{table}.1] Terminar turno\n   [{table}.2] Construir…  [{table}.3] Hipotecar…" in printed


PANELS = f"""\
/turista new edition:monopolio
Reglas de la casa
elige 2.3 Sin tiempo
elige 2.4 Repartir
as Beto
/turista join
as Ana
Empezar
Tirar
Hipotecar…
elige {4 + PING + 1}.1 valencia
Levantar hipoteca…
elige {4 + PING + 2}.1 valencia
Construir…
elige {4 + PING + 3}.1 valencia
Tratos…
elige {4 + PING + 4}.1 Beto
elige {4 + PING + 4}.2 castellana
/turista end
Sí, terminar la partida
/quit
"""
PROMPT = re.compile(r"^(Ana|Beto|Carla)> (.*)$", re.MULTILINE)


def answers(printed: str) -> dict[str, str]:
    """What the sandbox printed after each input line, by that line."""
    parts = PROMPT.split(printed)
    return {line: text for _, line, text in zip(parts[1::3], parts[2::3], parts[3::3], strict=True)}


def message(printed: str, number: int) -> str:
    """The last printing of message #`number` in `printed`."""
    found = [chunk for chunk in printed.split("── #")[1:] if chunk.startswith(f"{number} ")]
    assert found, f"message #{number} is not in:\n{printed}"
    return "── #" + found[-1]


RULES = """\
/turista new
Reglas de la casa
elige 2.4 +Bote, -Dobles
elige 2.4 -subasta
elige 2.4 Bote
/turista temporada nueva
as Beto
/turista temporada nueva
/quit
"""


def test_a_list_of_several_shows_what_is_ticked_and_plus_or_minus_changes_one(tmp_path: Path) -> None:
    """`select 2.4 Pot` kept only the pot: eight house rules went off without a word, and nothing showed which
    were ticked. The ticked options print with a ✓, the list says that choosing replaces them, and `+X` / `-X`
    tick or untick one and leave the rest. (In the same session: `/turista season new` is for someone who
    manages the server, which nobody at the sandbox's table does; `--manager Beto` makes Beto one, not Ana.)"""
    script = tmp_path / "rules.txt"
    script.write_text(RULES)
    code, printed = sandbox(tmp_path, "--script", str(script), "--out", str(tmp_path / "out"), "--manager", "Beto")
    assert code == 0 and "\n? " not in printed, printed
    after = answers(printed)

    def rules_list(line: str) -> str:
        shown = message(after[line], 2)
        (listed,) = [row for row in shown.splitlines() if row.startswith("   [2.4] ▾ ")]
        hint = shown.splitlines()[shown.splitlines().index(listed) + 1]
        assert hint == "   " + SANDBOX_ES("several", number="2.4"), shown
        return listed

    first = rules_list("Reglas de la casa")
    assert "✓ Subasta si nadie compra, Bote en el descanso, ✓ Renta doble" in first
    assert "✓ Dobles: otro tiro" in first and "✓ Un hilo por partida" in first
    changed = rules_list("elige 2.4 +Bote, -Dobles")
    assert "✓ Subasta si nadie compra, ✓ Bote en el descanso, ✓ Renta doble" in changed
    assert ", Dobles: otro tiro, ✓ Tres dobles: deportado" in changed and "✓ Un hilo por partida" in changed
    assert ": Subasta si nadie compra, ✓ Bote en el descanso" in rules_list("elige 2.4 -subasta")
    # Without + or -, the values chosen are the whole set, as in Discord's client.
    assert "   Reglas: Bote en el descanso\n" in message(after["elige 2.4 Bote"], 2)
    assert rules_list("elige 2.4 Bote").count("✓") == 1
    ana, beto = printed.split("Beto> /turista temporada nueva")
    assert "Solo quien puede gestionar el servidor empieza una temporada nueva." in ana.split("Ana> elige 2.4 Bote")[1]
    assert "¿Empezar la temporada 2?" in beto and "Solo quien puede gestionar" not in beto


IDLE = """\
import sys
import bot.sandbox.table as table
original = table.Sandbox._bot_env
table.Sandbox._bot_env = lambda self: {**original(self), "TURISTA_AUCTION_QUIET": "2", "TURISTA_TIME_SCALE": "0.05"}
from bot.sandbox import main
sys.exit(main(sys.argv[1:]))
"""


def test_what_happens_while_the_person_is_idle_prints_when_it_happens_in_order(tmp_path: Path) -> None:
    """Typed at the prompt, then nothing: an auction that closed while idle never appeared until the next input,
    and the clock's warning printed after the table it came before. Here Ana declines a title and types nothing
    more; the auction closing (2 s of quiet here), the clock's warning, the computer playing for her and Beto's
    turn all print, in that order, while the sandbox waits at its prompt. (A minute of a decision lasts 3 s.)"""
    child = subprocess.Popen(
        [sys.executable, "-c", IDLE, "--seed", "1", "--pace", "0.05", "--no-open", "--out", str(tmp_path / "out")],
        cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(b"/turista new\nas Beto\n/turista join\nas Ana\nEmpezar\nTirar\nNo comprar\n")
    child.stdin.flush()
    output = b""
    os.set_blocking(child.stdout.fileno(), False)
    deadline = time.monotonic() + 120  # a hang, however busy the machine: the clock here runs out in 6 s
    while "Turno 2 · Beto".encode() not in output and child.poll() is None and time.monotonic() < deadline:
        try:
            output += os.read(child.stdout.fileno(), 65536)
        except BlockingIOError:
            time.sleep(0.05)
    child.stdin.write(b"/quit\n")
    child.stdin.close()
    os.set_blocking(child.stdout.fileno(), True)
    output += child.stdout.read()
    assert child.wait(60) == 0
    printed = output.decode()
    happened = ["🔨 Subasta: Línea Aérea Americana", "La subasta se cerró.", "⏳ @Ana, la mesa te espera",
                "🤖 La computadora jugó por Ana.", "🎲 Turno 2 · Beto"]
    at = [printed.find(text) for text in happened]
    assert -1 not in at and at == sorted(at), (at, printed)


def test_changes_printed_together_go_in_the_order_they_happened(tmp_path: Path) -> None:
    """A table, then the clock's warning posted after it, then the table edited: printed together, the table
    (as it is now) comes first, as it was posted first; once printed, an edit of it goes by the edit's time."""
    guild = FakeGuild(1, "Sandbox", owner_id=2)
    channel = FakeChannel(3, guild, "turista")
    bot = FakeUser(2, "Turista", bot=True)
    epoch = 1_420_070_400_000  # Discord's, in ms: a snowflake is its time since then, shifted by 22 bits
    at = lambda seconds: int(seconds * 1000 - epoch) << 22  # noqa: E731
    iso = lambda seconds: datetime.fromtimestamp(seconds, tz=UTC).isoformat()  # noqa: E731
    table = FakeMessage(at(1_800_000_000), channel, bot, content="table", edited_timestamp=iso(1_800_000_002))
    warning = FakeMessage(at(1_800_000_001), channel, bot, content="warning")
    printer = Printer(tmp_path, open_pictures=False, words=lambda key, **params: key)
    assert sorted([warning, table], key=printer.changed_at) == [table, warning]
    printer.track([table, warning])
    printer.show(table)
    printer.show(warning)
    assert sorted([table, warning], key=printer.changed_at) == [warning, table]


async def test_wait_n_waits_n_seconds_and_wait_alone_until_the_table_is_still(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`wait 5` waited for 5 s of quiet, up to a minute, where the help says it lets the table play 5 s. Now it
    waits those seconds (what happens meanwhile prints as it happens); `wait` alone waits until the table has
    been still for 3 s, which scripts use to let the computers finish whatever the machine's speed."""
    from bot.sandbox import parse_args
    from bot.sandbox.table import WAIT_QUIET, Sandbox

    box = Sandbox(parse_args(["--no-open", "--out", str(tmp_path / "out")]), names=["Ana"])
    settled: list[float] = []

    async def settle(quiet: float = 1.0, cap: float = 60.0) -> None:
        settled.append(quiet)

    monkeypatch.setattr(box, "_settle", settle)
    monkeypatch.setattr(box, "_print_changed", lambda: False)
    began = time.monotonic()
    assert await box.handle("espera 0.3")
    assert time.monotonic() - began >= 0.3 and settled == []
    assert await box.handle("wait") and settled == [WAIT_QUIET] == [3.0]


ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = Path("docs") / "sandbox-example.txt"


def readme_example() -> list[str]:
    """The arguments of the README's example command, as printed: its line in README.md when the README
    shows it, else the first line of the example script (`# The README's example session: turista …`)."""
    command = re.compile(rf"turista sandbox [^`\n]*--script {re.escape(EXAMPLE.as_posix())}[^`\n]*")
    shown = command.search((ROOT / "README.md").read_text(encoding="utf-8"))
    line = shown.group(0) if shown else command.search((ROOT / EXAMPLE).read_text(encoding="utf-8")).group(0)
    return shlex.split(line)[2:]


def test_the_readmes_example_plays_as_printed(tmp_path: Path) -> None:
    """Who starts is drawn: without a seed the example's `Tirar` was "No es tu turno" three runs in four. The
    README shows the example with a seed that lets Ana start; if the README shows the script itself, it is
    the file the command reads."""
    script = (ROOT / EXAMPLE).read_text(encoding="utf-8")
    steps = [line for line in script.splitlines() if line.strip() and not line.startswith("#")]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for block in re.findall(r"```\n(.*?)```", readme, re.DOTALL):
        if block.startswith("/turista new\n"):
            assert block.splitlines() == steps, "the README's script is not docs/sandbox-example.txt"
    (tmp_path / "docs").mkdir()
    (tmp_path / EXAMPLE).write_text(script, encoding="utf-8")
    args = readme_example()
    assert "--seed" in args
    done = subprocess.run([sys.executable, "-m", "bot", "sandbox", *args], capture_output=True, text=True,
                          timeout=180, cwd=tmp_path)
    printed = done.stdout + done.stderr
    assert done.returncode == 0 and "\n? " not in printed and "No es tu turno" not in printed, printed
    assert "Ana tira " in answers(printed)["Tirar"], printed


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
def test_ctrl_c_leaves_at_once(tmp_path: Path, terminal: bool) -> None:
    """Ctrl+C printed ^C and waited for Enter (the thread reading the line was waited for), then exited 130.
    It leaves at once, as /quit and Ctrl+D do: from a terminal (the key) and from a pipe (the signal). Nothing
    here ever presses Enter, so leaving at all is the proof; the minute allowed is for a busy machine."""
    command = [sys.executable, "-m", "bot", "sandbox", "--no-open", "--out", str(tmp_path / "out")]
    output = b""
    if terminal:
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(tmp_path)
            os.execv(command[0], command)
        read = lambda: os.read(fd, 65536)  # noqa: E731
    else:
        child = subprocess.Popen(command, cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT)
        assert child.stdout is not None
        read = lambda: os.read(child.stdout.fileno(), 65536)  # noqa: E731
    deadline = time.monotonic() + 60
    while b"Ana> " not in output and time.monotonic() < deadline:
        output += read()
    assert b"Ana> " in output, output.decode()
    if terminal:
        os.write(fd, b"\x03")  # the terminal turns it into SIGINT for the sandbox and its bot
    else:
        child.send_signal(signal.SIGINT)
    while chunk := _read_until_closed(read):
        output += chunk
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) if terminal else child.wait(60)
    printed = output.decode()
    assert code == 130, (code, printed)
    assert printed.rstrip().endswith("Hasta luego.") and "Traceback" not in printed and "Fatal" not in printed


def test_a_sigterm_stops_the_bot_too(tmp_path: Path) -> None:
    """`kill` (or `timeout`) ended the sandbox at once and left its bot running, reconnecting for good to a fake
    Discord that had gone with the sandbox. It leaves as Ctrl+C does, the bot stopped on the way out."""
    child = subprocess.Popen([sys.executable, "-m", "bot", "sandbox", "--no-open", "--out", str(tmp_path / "out")],
                             cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert child.stdout is not None
    output, deadline = b"", time.monotonic() + 60
    while b"Ana> " not in output and time.monotonic() < deadline:
        output += os.read(child.stdout.fileno(), 65536)
    assert b"Ana> " in output, output.decode()
    bots = [int(pid) for pid in Path(f"/proc/{child.pid}/task/{child.pid}/children").read_text().split()]
    assert bots, "the bot runs in a process of its own"
    child.send_signal(signal.SIGTERM)
    printed = (output + child.communicate(timeout=60)[0]).decode()
    # (A request the signal cut short may warn after the goodbye: what matters is the way out and the bot.)
    assert "Hasta luego." in printed and "Traceback" not in printed, printed
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in bots) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in bots), "the bot outlived the sandbox"


def _read_until_closed(read: Callable[[], bytes]) -> bytes:
    try:
        return read()
    except OSError:  # a terminal whose other end has closed
        return b""


# -- reading lines and commands -------------------------------------------------------------------
def test_quitting_is_only_slash_quit_and_every_button_label_is_a_press() -> None:
    assert parse("/quit") == Verb("quit")
    for word in ("quit", "exit", "salir", "Salir"):
        assert parse(word) == Press(word)
    assert parse("ver") == Verb("look") and parse("espera 2") == Verb("wait", "2")
    assert parse("ver tablero") == Press("ver tablero")
    for lang in ("es", "en"):
        labels = [v for k, v in BOT.texts(lang).items() if k.startswith("bot.button.")]
        assert labels
        for label in labels:
            assert parse(label) == Press(label), (lang, label)


REGISTERED = [
    {"name": "bid", "name_localizations": {"es-419": "pujar"}, "options": [
        {"type": INTEGER, "name": "amount", "required": True, "min_value": 1,
         "name_localizations": {"es-419": "cantidad"}}]},
    {"name": "turista", "options": [
        {"type": 1, "name": "new", "name_localizations": {"es-419": "nueva"}, "options": []},
        {"type": 1, "name": "addbot", "name_localizations": {"es-419": "computadora"}, "options": [
            {"type": 3, "name": "level", "name_localizations": {"es-419": "nivel"}, "choices": [
                {"name": "facil", "value": "facil", "name_localizations": {"es-419": "fácil"}}]}]}]},
]


def test_commands_resolve_by_english_or_spanish_names_accents_aside() -> None:
    assert fold("Fácil") == "facil"
    assert resolve(REGISTERED, ["turista", "nueva"], {}, "es").path == "turista new"
    command = resolve(REGISTERED, ["Turista", "Computadora", "FÁCIL"], {}, "es")
    assert command.path == "turista addbot" and command.shown == "turista computadora"
    assert command.raw == {"level": "FÁCIL"}
    assert resolve(REGISTERED, ["pujar"], {"cantidad": "5"}, "es").raw == {"amount": "5"}
    with pytest.raises(Refusal) as refusal:
        resolve(REGISTERED, ["turista"], {}, "en")
    assert refusal.value.code == "needs_subcommand" and refusal.value.params["choices"] == "new, addbot"
    with pytest.raises(Refusal) as refusal:
        resolve(REGISTERED, ["bid"], {"monto": "5"}, "es")
    assert refusal.value.code == "no_option" and refusal.value.params["options"] == "cantidad"


def test_names_match_as_discords_autocomplete_does() -> None:
    """`select 26.1 Lupita` failed on "🤖 Lupita" and `elige 35.1 Velázquez` on "Calle Velázquez": the start
    of any word is enough, a whole name or the start of one first."""
    assert starts_a_word("lupita", "🤖 Lupita") and starts_a_word("Velázquez", "Calle Velázquez")
    assert starts_a_word("calle vel", "Calle Velázquez") and not starts_a_word("lle", "Calle Velázquez")
    assert pick("Lupita", ["Beto", "🤖 Lupita"]) == 1
    assert pick("velazquez", ["Calle Serrano", "Calle Velázquez"]) == 1
    assert pick("comprar", ["Comprar $8,000", "No comprar → subasta"]) == 0
    assert pick("Ana", ["Ana", "Anabel"]) == 0 and pick("x", ["Ana"]) is None
    with pytest.raises(Refusal) as refusal:
        pick("calle", ["Calle Serrano", "Calle Velázquez", "Gran Vía"])
    assert refusal.value.code == "ambiguous" and refusal.value.params["choices"] == "Calle Serrano, Calle Velázquez"


BUILD = {"name": "build", "name_localizations": {"es-419": "construir"}, "options": [
    {"type": STRING, "name": "property", "required": True, "autocomplete": True,
     "name_localizations": {"es-419": "titulo"}},
    {"type": INTEGER, "name": "count", "min_value": 1, "max_value": 5, "name_localizations": {"es-419": "cantidad"}}]}
NEW = {"name": "turista", "options": [{"type": 1, "name": "new", "name_localizations": {"es-419": "nueva"}, "options": [
    {"type": INTEGER, "name": "start_cash", "min_value": 1}]}]}


async def test_option_values_are_read_as_discords_client_reads_them() -> None:
    """A multi-word name followed by a count needed quotes nobody mentioned; `start_cash: 5000` (a space after
    the colon) was refused; `/construir fuencarral` sent the bare word the bot could not place."""

    def typed(line: str) -> dict[str, str]:
        meaning = parse(line)
        assert isinstance(meaning, Slash)
        return resolve([BUILD, NEW], meaning.words, meaning.named, "es").raw

    assert typed("/construir Glorieta de Bilbao 2") == {"property": "Glorieta de Bilbao", "count": "2"}
    assert typed("/construir Glorieta de Bilbao") == {"property": "Glorieta de Bilbao"}
    assert typed("/construir titulo: Glorieta de Bilbao cantidad: 2") == {"property": "Glorieta de Bilbao",
                                                                         "count": "2"}
    assert typed('/construir "Glorieta de Bilbao" 3') == {"property": "Glorieta de Bilbao", "count": "3"}
    assert typed("/turista nueva start_cash: 5000") == typed("/turista nueva start_cash:5000") == {
        "start_cash": "5000"}

    async def titles(option: object, value: str, filled: dict[str, object]) -> list[dict[str, str]]:
        offered = ["Calle Alberto Aguilera", "Calle Fuencarral", "Glorieta de Bilbao"]
        return [{"name": name, "value": str(i)} for i, name in enumerate(offered) if fold(value) in fold(name)]

    command = resolve([BUILD], ["construir", "fuencarral", "2"], {}, "es")
    assert await typed_options(command, "es", {}, titles) == {"property": "1", "count": 2}


async def test_a_number_of_any_size_is_refused_as_discords_client_refuses_it() -> None:
    """`/bid` with 309 digits, or `/turista new start_cash:` with 400, ended the session with an OverflowError: an
    int too large for a float. Discord's client takes an INTEGER within ±(2^53 − 1): past that, the limit."""

    async def nothing(option: object, value: str, filled: dict[str, object]) -> list[dict[str, str]]:
        return []

    async def refused(line: str) -> tuple[str, dict[str, object]]:
        meaning = parse(line)
        assert isinstance(meaning, Slash)
        registered = [NEW] if "nueva" in line else REGISTERED
        with pytest.raises(Refusal) as refusal:
            await typed_options(resolve(registered, meaning.words, meaning.named, "es"), "es", {}, nothing)
        return refusal.value.code, refusal.value.params

    for digits in (309, 400, 5000):
        assert await refused("/pujar " + "9" * digits) == ("too_big", {"option": "cantidad",
                                                                       "limit": "9,007,199,254,740,991"})
    assert (await refused("/turista nueva start_cash:" + "1" * 400))[0] == "too_big"
    assert await refused("/pujar -" + "9" * 400) == ("too_small", {"option": "cantidad", "limit": "1"})
    assert (await refused("/pujar 9007199254740992"))[0] == "too_big"
    meaning = parse("/pujar 9,007,199,254,740,991")
    assert isinstance(meaning, Slash)
    assert await typed_options(resolve(REGISTERED, meaning.words, meaning.named, "es"), "es", {}, nothing) == {
        "amount": 2**53 - 1}
    assert SANDBOX_ES("too_big", option="cantidad", limit="9,007,199,254,740,991") == (
        "La opción «cantidad» es como máximo 9,007,199,254,740,991.")


async def test_a_computer_named_in_a_person_option_is_told_how_to_trade_with_it() -> None:
    """`/trade lupita` said only that nobody of that name was at the table: Lupita is, as a computer."""
    trade = {"name": "trade", "name_localizations": {"es-419": "tratar"}, "options": [
        {"type": USER, "name": "user", "required": True, "name_localizations": {"es-419": "usuario"}}]}
    ana = FakeUser(1, "Ana")
    command = resolve([trade], ["trade", "lupita"], {}, "en")
    with pytest.raises(Refusal) as refused:
        await typed_options(command, "en", {"ana": ana}, None)  # type: ignore[arg-type]
    said = SANDBOX.text("en", f"sandbox.{refused.value.code}", **refused.value.params)
    assert "“lupita”" in said and "(Ana)" in said and "never a computer player" in said and "*Trade…*" in said


def test_the_printer_numbers_controls_in_screen_order_and_opens_each_board_once(tmp_path: Path) -> None:
    """The lobby read `[1.5] Start [1.7] Remove computer`, then `[1.6]` (buttons first, lists after), and every
    picture opened in a viewer: controls print row by row in their numbers' order, and only a table's board
    opens, once, not at its edits."""
    guild = FakeGuild(1, "Sandbox", owner_id=2)
    channel = FakeChannel(3, guild, "turista")
    bot = FakeUser(2, "Turista", bot=True)
    button = lambda label: {"type": 2, "label": label, "custom_id": label}  # noqa: E731
    lobby = FakeMessage(10, channel, bot, components=[
        {"type": 1, "components": [button("Join"), button("Start")]},
        {"type": 1, "components": [{"type": 3, "custom_id": "level", "placeholder": "Level",
                                    "options": [{"label": "easy", "value": "easy"}]}]},
        {"type": 1, "components": [button("Remove computer")]},
    ])
    board = FakeAttachment(1, "board.png", b"\x89PNG one", "")
    table = FakeMessage(11, channel, bot, attachments=[board], components=[{"type": 1, "components": [button("Roll")]}])
    deed = FakeMessage(12, channel, bot, attachments=[FakeAttachment(2, "deed.png", b"\x89PNG deed", "")])
    opened: list[Path] = []
    printer = Printer(tmp_path, open_pictures=True, words=lambda key, **params: key)
    printer._open = opened.append  # type: ignore[method-assign]
    printer.track([lobby, table, deed])
    rows = ["   [1.1] Join  [1.2] Start", "   [1.3] ▾ Level: easy", "   [1.4] Remove computer"]
    assert printer.show(lobby)[1:] == rows
    printer.show(table)
    printer.show(deed)
    table.attachments = [FakeAttachment(3, "board.png", b"\x89PNG two", "")]  # the table edited: a new board
    table.history.append({})
    printer.show(table)
    assert opened == [tmp_path / "001-board.png"] and len(list(tmp_path.glob("*.png"))) == 3


def test_discord_markup_reads_as_discord_shows_it_and_old_pictures_go(tmp_path: Path) -> None:
    """The sandbox printed `<#…>` and `<t:…:R>` as they were sent, and a 354-turn game left 752 pictures."""
    guild = FakeGuild(1, "Sandbox", owner_id=2)
    channel = FakeChannel(3, guild, "turista")
    thread = FakeChannel(4, guild, "Turista · partida 1", type=11, parent=channel)
    guild.channels += [channel, thread]
    bot = FakeUser(2, "Turista", bot=True)
    soon = int(time.time()) + 40
    note = FakeMessage(10, channel, bot, content=f"En juego en <#4>: decide <t:{soon}:R>; <t:1700000000:d> <#99> <#5>")
    printer = Printer(tmp_path, open_pictures=False, words=lambda key, **params: f"{key}({params.get('span')})")
    printer.places = {5: FakeChannel(5, guild, "Mesa 2", type=11, parent=channel)}  # a thread the fake knows
    printer.track([note])
    line = printer.show(note)[1]
    assert re.fullmatch(r"   En juego en #Turista · partida 1: decide time_in\((39|40) s\); 2023-11-1[45] #99 #Mesa 2",
                        line), line
    boards = [FakeMessage(20 + k, channel, bot, attachments=[FakeAttachment(k, "board.png", b"\x89PNG %d" % k, "")])
              for k in range(KEEP_PICTURES + 5)]
    printer.track(boards)
    first = printer.show(boards[0])
    for message in boards[1:]:
        printer.show(message)
    assert len(list(tmp_path.glob("*.png"))) == KEEP_PICTURES
    assert (tmp_path / f"{KEEP_PICTURES + 5:03d}-board.png").exists()
    boards[0].history.append({})
    assert printer.show(boards[0])[1] == first[1] + " picture_gone(None)"


def test_each_session_has_a_folder_and_out_must_be_one(tmp_path: Path) -> None:
    """A second session in the same folder overwrote 001-board.png; `--out FILE` ended in a traceback."""
    first, second = session_folder(tmp_path / "out"), session_folder(tmp_path / "out")
    assert first != second and first.parent == second.parent == tmp_path / "out"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d-\d{4}", first.name) and second.name == f"{first.name}-2"
    (tmp_path / "taken").write_text("a file")
    done = subprocess.run([sys.executable, "-m", "bot", "sandbox", "--out", "taken"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].endswith("--out taken is a file: give a folder (made if missing) for the "
                                                 "sessions' files")
    shown = subprocess.run([sys.executable, "-m", "bot", "sandbox", "--help"], capture_output=True, text=True,
                           timeout=60).stdout
    for option in ("--no-open", "--out FOLDER", "--pace SECONDS", "--seed SEED"):
        assert option in shown


def test_look_during_an_auction_shows_the_board(tmp_path: Path) -> None:
    """The newest picture in an auction is the title's deed: `look` showed the auction, not the board."""
    script = tmp_path / "auction.txt"
    script.write_text("ver\n/turista new\nas Beto\n/turista join\nas Ana\nEmpezar\nTirar\nNo comprar\nver\n/quit\n")
    code, printed = sandbox(tmp_path, "--script", str(script), "--out", str(tmp_path / "out"))
    assert code == 0, printed
    assert printed.split("Ana> ver\n")[1].startswith("Todavía no hay tablero: sale cuando empieza una partida.")
    looked = answers(printed)["ver"]
    assert "🔨 Subasta en curso de" in looked and "-board.png" in looked and "deed" not in looked
