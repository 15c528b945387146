"""Pictures of the game: the board after every turn, title deeds and the end-of-game summary.

    board(state, lang="es") -> PNG bytes                  (prepare(edition, lang) warms it up)
    deed(edition, square, state=None, lang="es") -> PNG bytes
    summary(history_from_log(first_state, actions), lang="es") -> PNG bytes

Every function is pure (it only reads what it is given) and thread-safe, so the bot runs them in a worker
thread (`asyncio.to_thread`). Imports `engine` only.
"""

from render.board import board, board_image, prepare
from render.deed import deed, deed_image
from render.summary import History, history_from_log, summary, summary_image

__all__ = [
    "History",
    "board",
    "board_image",
    "deed",
    "deed_image",
    "history_from_log",
    "prepare",
    "summary",
    "summary_image",
]
