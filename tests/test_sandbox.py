"""`turista sandbox`: the real bot, the fake Discord and a table in the terminal, typed or scripted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.sandbox.commands import INTEGER, Refusal, fold, resolve
from bot.sandbox.inputs import Press, Verb, parse
from bot.store import Store
from engine.i18n import catalogue

SCRIPT = Path(__file__).parent / "data" / "sandbox-short.txt"


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
    pictures = sorted(out.glob("*.png"))
    assert len(pictures) >= 8
    for path in pictures:
        assert f"🖼  {path}" in printed
        assert path.read_bytes().startswith(b"\x89PNG")
    assert (out / "sandbox.db").exists()


def test_sandbox_refuses_bad_arguments(tmp_path: Path) -> None:
    for args in (["--players", "7"], ["--edition", "nope"], ["--script", str(tmp_path / "missing.txt")]):
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
/turista addbot experto
/roll now
/mortgage
/tirar
look
look
/quit
/turista end
"""


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
    assert any(line.startswith("? La opción «nivel» no admite «experto»; elige: fácil, normal") for line in lines)
    assert "? El comando /tirar no lleva nada más: sobra «now»." in lines
    assert "? Falta la opción «titulo» de /hipotecar." in lines
    assert "Ana tira" in printed and "invalid literal" not in printed and "Traceback" not in printed
    assert "custom_id" not in printed and "turista:" not in printed
    # `look` shows the board again from the file it is already in.
    looks = printed.split("Ana> look\n")[1:]
    shown = [next(line for line in chunk.splitlines() if "🖼" in line) for chunk in looks]
    assert len(shown) == 2 and shown[0] == shown[1]
    assert len(list((tmp_path / "out").glob("*.png"))) == len({line for line in lines if "🖼" in line})


RECORDED = """\
/turista new
as Beto
/turista join
as Ana
1.5
3.1
3.2
4.4
12000
as Beto
4.5
"""


def test_a_recorded_session_replays_exactly_by_button_numbers(tmp_path: Path) -> None:
    """Typed (Ctrl+D to end) with --record, then replayed with --script: the same buttons, the same game."""
    (tmp_path / "typed").mkdir()
    (tmp_path / "replayed").mkdir()
    record = tmp_path / "session.txt"
    code, typed = sandbox(tmp_path, "--out", "typed", "--record", str(record), stdin=RECORDED)
    assert code == 0, typed
    assert record.read_text() == RECORDED  # form answers included
    assert "[4.4] Otra cantidad…" in typed and "Ana gana la subasta" in typed, typed
    code, replayed = sandbox(tmp_path, "--out", "replayed", "--script", str(record))
    assert code == 0, replayed
    assert "\n? " not in typed + replayed
    with Store(tmp_path / "typed" / "sandbox.db", create=False) as a, \
            Store(tmp_path / "replayed" / "sandbox.db", create=False) as b:
        (first,), (second,) = a.game_ids(), b.game_ids()
        assert a.game(first).version == b.game(second).version >= 4
        assert a.game(first).snapshot == b.game(second).snapshot


# -- reading lines and commands -------------------------------------------------------------------
def test_quitting_is_only_slash_quit_and_every_button_label_is_a_press() -> None:
    assert parse("/quit") == Verb("quit")
    for word in ("quit", "exit", "salir", "Salir"):
        assert parse(word) == Press(word)
    assert parse("ver") == Verb("look") and parse("espera 2") == Verb("wait", "2")
    assert parse("ver tablero") == Press("ver tablero")
    for lang in ("es", "en"):
        labels = [v for k, v in catalogue(lang).items() if k.startswith("bot.button.")]
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
