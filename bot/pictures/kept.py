"""What the picture workers keep on disk between runs: the palettes `render` learns (`render.png.keep_palettes`).

Learning the palettes is most of a worker's warm-up (about 0.4 s of CPU per edition and language, 2.6 s of the
3 s it takes for all of them); read back from a file, one costs well under a millisecond. Each palette is a file
of its own, named by the digest `render` gives it (its sample's pixels), written whole under a temporary name and
then renamed, so several workers and several bot processes share one folder without locks, and a file is
either whole or absent. The folder only ever saves time: a file that is missing, damaged or cannot be written is
learnt again, and the log says once that the folder cannot be written.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from pathlib import Path

from render.png import PALETTE_BYTES

log = logging.getLogger(__name__)
SUFFIX = ".palette"


class PaletteFolder:
    """Palettes as files in `folder` (created when the first one is written)."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)
        self.writable = True
        self.missed = 0  # palettes asked for and not found (each then learnt)

    def get(self, key: str) -> bytes | None:
        try:
            data = (self.folder / f"{key}{SUFFIX}").read_bytes()
        except OSError:
            data = b""
        if len(data) != PALETTE_BYTES:
            self.missed += 1
            return None
        return data

    def put(self, key: str, palette: bytes) -> None:
        if not self.writable:
            return
        temporary: str | None = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
            with os.fdopen(handle, "wb") as out:
                out.write(palette)
            os.replace(temporary, self.folder / f"{key}{SUFFIX}")
        except OSError as error:
            if temporary is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
            self.writable = False
            log.warning("pictures: cannot keep what they learn in %s (%s); each start learns it again", self.folder,
                        error)
