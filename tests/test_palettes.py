"""The palettes the pictures learn are kept on disk between runs: used only for the very picture they were learnt
from, shared safely by several processes, and never a reason for a picture to fail."""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.pictures.kept import PaletteFolder
from render import png
from render.png import PALETTE_BYTES, keep_palettes, palette


class Recorded(dict):
    """Kept palettes in memory, with what was asked of them."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[str] = []

    def get(self, key: str) -> bytes | None:  # type: ignore[override]
        self.asked.append(key)
        return super().get(key)

    def put(self, key: str, palette: bytes) -> None:
        self[key] = palette


@pytest.fixture
def fresh() -> Iterator[None]:
    png._palette.cache_clear()
    yield
    keep_palettes(None)
    png._palette.cache_clear()


def test_a_kept_palette_is_the_one_learnt_and_spares_the_learning(fresh: None,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    learnt = palette("board", "mundial", "es").getpalette()
    kept = Recorded()
    keep_palettes(kept)
    png._palette.cache_clear()
    assert palette("board", "mundial", "es").getpalette() == learnt  # learnt again, and kept
    assert len(kept) == 1 and all(len(p) == PALETTE_BYTES for p in kept.values())

    png._palette.cache_clear()  # a new process: the palette comes from what was kept, without learning
    monkeypatch.setattr(png, "learn", lambda *a: pytest.fail("learnt again"))
    assert palette("board", "mundial", "es").getpalette() == learnt


def test_another_picture_never_gets_a_palette_kept_for_another(fresh: None) -> None:
    kept = Recorded()
    keep_palettes(kept)
    for edition, lang in (("mundial", "es"), ("mundial", "en"), ("turismundo", "es")):
        palette("board", edition, lang)
    palette("deed", "mundial", "es")
    assert len(set(kept.asked)) == 4 == len(kept)


def test_a_folder_keeps_palettes_whole_and_forgives_what_it_cannot_read(tmp_path: Path) -> None:
    folder = PaletteFolder(tmp_path / "cache" / "palettes")
    assert folder.get("abc") is None  # nothing there yet: not even the folder
    folder.put("abc", bytes(range(256)) * 3)
    assert PaletteFolder(tmp_path / "cache" / "palettes").get("abc") == bytes(range(256)) * 3
    assert [p.name for p in (tmp_path / "cache" / "palettes").iterdir()] == ["abc.palette"]  # no temporary left
    (tmp_path / "cache" / "palettes" / "cut.palette").write_bytes(b"\0" * 100)  # a file cut short
    assert folder.get("cut") is None


def test_a_file_in_place_of_the_folder_is_said_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "cache").write_text("not a folder")
    folder = PaletteFolder(tmp_path / "cache" / "palettes")
    with caplog.at_level(logging.WARNING):
        folder.put("a", bytes(PALETTE_BYTES))
        folder.put("b", bytes(PALETTE_BYTES))
    assert folder.get("a") is None
    assert len(caplog.records) == 1 and "each start learns it again" in caplog.text


async def test_a_worker_that_found_nothing_kept_learns_its_share_before_the_bot_connects(tmp_path: Path) -> None:
    # The first start after an install: the palettes are learnt before the bot connects, a share by each worker,
    # so that a game started at once never waits behind a palette being learnt. A start that finds them kept
    # draws only the likeliest edition then, and leaves the rest to the workers' quiet moments.
    from bot.pictures import drawing
    from bot.pictures.workers import Worker

    steps = len(drawing._steps(0, 1)[0])
    folder = tmp_path / "palettes"

    async def settled(*args: object) -> bool:
        worker = Worker("test-pictures", initializer=drawing.worker_start, initargs=(str(folder),))
        worker.start()
        try:
            assert await worker.call(drawing.settle, False, 0.0) is True  # no warm-up asked: nothing to wait for
            return await worker.call(drawing.settle, True, *args)
        finally:
            worker.stop()

    def kept() -> set[str]:
        return {p.name for p in folder.glob("*.palette")}

    def empty() -> None:
        for name in kept():
            (folder / name).unlink()

    assert await settled(0.0) is False  # out of time after the likeliest edition
    likeliest = kept()
    assert len(likeliest) == 1
    empty()
    assert await settled(60.0, 0, 2) is True  # the first of two workers: the likeliest and half of the others
    assert len(kept()) == 1 + math.ceil((steps - 1) / 2)
    empty()
    assert await settled(60.0) is True  # one worker alone learns them all
    assert len(kept()) == steps
    for name in kept() - likeliest:
        (folder / name).unlink()
        break
    assert await settled(60.0) is True  # the likeliest was kept: the rest is left for later
    assert len(kept()) == steps - 1
