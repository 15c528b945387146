"""Pictures of the game: the board after every turn, title deeds and the end-of-game summary.

Discord shows an attached picture about 550 px wide in a desktop channel and 350 px wide on a phone, and few
people click to enlarge it. Every picture is drawn at twice the desktop size (the board 1100 x 688), wide
enough (550:350) that a preview limited in height still gets the full width, and laid out to be read there:
owners as filled squares with the owner's letter, tokens in a lane inside the ring (never over a square),
the seat the game waits for in a yellow banner and with a halo.

    board(state, lang="es", *, events=(), absent=(), minutes_left=None) -> PNG bytes
        events:        the engine events of the last action; the centre tells the last one or two
        absent:        seats whose person is away (played for by the clock); marked in the panel
        minutes_left:  minutes left of a game with a time limit; shown in the centre
    caption(state, lang="es") -> (who, what)   the seat(s) the game waits for and for what (the banner's words)
    prepare(edition, lang="es")                draws the printed board and learns its palette (about a second,
                                               once per edition and language): call it at start-up
    deed(edition, square, state=None, lang="es") -> PNG bytes   (in an auction: nothing the bids change)
    summary(history_from_log(first_state, actions), lang="es") -> PNG bytes
    preview(png, width) -> PNG bytes           a picture scaled down as Discord shows it (550, 350)
    replay(first_state, actions, lang="es", *, progress=None) -> GIF bytes
                                               the whole game animated, turn by turn (or round by round),
                                               then the final standings; progress(done, total) per frame
    profile_card(ProfileCard(...), lang="es") -> PNG bytes   a person's card for /turista profile
    ranking_lines([RankingRow(...), ...], lang="es") -> RankingLines   the season's table as embed lines

Every function is pure (it only reads what it is given) and thread-safe, so the bot runs them off the event
loop. Imports `engine` only.
"""

from render.board import Table, board, board_image, caption, prepare, warm_up
from render.deed import deed, deed_image
from render.png import preview
from render.profile import BestGame, ProfileCard, profile_card
from render.ranking import RankingLines, RankingRow, ranking_lines
from render.replay import replay
from render.summary import History, history_from_log, summary, summary_image

__all__ = [
    "BestGame",
    "History",
    "ProfileCard",
    "RankingLines",
    "RankingRow",
    "Table",
    "board",
    "board_image",
    "caption",
    "deed",
    "deed_image",
    "history_from_log",
    "prepare",
    "preview",
    "profile_card",
    "ranking_lines",
    "replay",
    "summary",
    "summary_image",
    "warm_up",
]
