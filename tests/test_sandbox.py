"""`python -m bot sandbox --script`: the real bot, the fake Discord and a scripted table in the terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parent / "data" / "sandbox-short.txt"


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
    assert "[1] Unirme" in printed and "@Ana" in printed and "\n? " not in printed
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
