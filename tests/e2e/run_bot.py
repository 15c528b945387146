"""`python -m tests.e2e.run_bot`: the real `python -m bot`, for the end-to-end tests.

It only fills in pictures `render` does not draw yet with a tiny Pillow PNG, so the tests can run while
the renderer grows; whatever `render` provides is used as is.
"""

from __future__ import annotations

import io
import sys

import render


def _placeholder(*_args: object, **_kwargs: object) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (20, 120, 60)).save(buffer, "PNG")
    return buffer.getvalue()


for _name in ("board", "deed", "summary"):
    if not hasattr(render, _name):
        try:
            module = __import__(f"render.{_name}", fromlist=[_name])
            setattr(render, _name, getattr(module, _name))
        except (ImportError, AttributeError):
            setattr(render, _name, _placeholder)

if __name__ == "__main__":
    from bot.__main__ import main

    sys.exit(main())
