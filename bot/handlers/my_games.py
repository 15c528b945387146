"""`/turista my-games`: privately, every game in play on the server where the person is seated."""

from __future__ import annotations

import discord

from bot.client import bot_of
from bot.face.i18n import lang_of, t
from bot.face.replies import refuse, say
from bot.face.texts import my_game_line
from bot.store import GameRow
from bot.table.reminders import waiting_seats

CONTENT_MAX = 2000  # Discord's limit on a message's content


async def list_games(interaction: discord.Interaction) -> None:
    if interaction.guild_id is None:
        await refuse(interaction, "guild_only")
        return
    lang = lang_of(interaction)
    rows = await bot_of(interaction).storage.games_of(interaction.guild_id, interaction.user.id)
    rows = [r for r in rows if r.state is not None]
    if not rows:
        await say(interaction, t(lang, "mygames.none"))
        return
    def waits_on_you(row: GameRow) -> bool:
        seat = row.seat_of(interaction.user.id)
        return seat is not None and row.state is not None and seat in waiting_seats(row.state)

    # The games waiting on the person first, then the soonest clocks.
    rows.sort(key=lambda r: (not waits_on_you(r), r.deadline or float("inf"), r.id))
    lines = [t(lang, "mygames.head")]
    for shown, row in enumerate(rows):
        line = my_game_line(row, interaction.user.id, lang)
        more = t(lang, "mygames.more", count=len(rows) - shown)
        if sum(len(x) + 1 for x in lines) + len(line) + len(more) + 2 > CONTENT_MAX:
            lines.append(more)
            break
        lines.append(line)
    await say(interaction, "\n".join(lines))
