"""The messages of what a table asks its people: a take-back waiting for the others' yes, a seat someone asks for
during the game. Each is a public message in the game's channel whose buttons carry all they need (the game, the
version asked at, the seat and person), so they work the same after a restart; what was agreed so far is the
store's (`Store.take_back_request`)."""

from __future__ import annotations

import discord

from bot.face import components
from bot.face.i18n import t
from engine import State
from words import account, listing

Style = discord.ButtonStyle


def take_back_view(game: int, version: int, lang: str) -> discord.ui.View:
    """Yes and No under a take-back asked at `version`."""
    return components.view(
        components.button(game, version, "undo_yes", t(lang, "button.undo_yes"), style=Style.success, emoji="↩️"),
        components.button(game, version, "undo_no", t(lang, "button.undo_no"), style=Style.danger),
    )


def moves_text(events: list[dict], state: State, lang: str) -> str:
    """What the moves to take back did, in a few sentences."""
    lines = account(events, state, lang)
    return " ".join(lines[:6]) or t(lang, "takeback.nothing_said")


def take_back_asked(state: State, seat: int, count: int, moves: str, waiting: list[str], lang: str, *,
                    unrated: bool = False) -> str:
    """The request as the table reads it: who asks, what goes, who has yet to say yes (`unrated`: the host's
    yes alone is enough, and the game then counts for the ranking no more)."""
    head = t(lang, "takeback.asked", seat=state.seats[seat].name, count=count, moves=moves)
    lines = [head, t(lang, "takeback.waiting", people=listing(lang, waiting))]
    if unrated:
        lines.append(t(lang, "takeback.unrated"))
    return "\n".join(lines)


def seat_view(game: int, version: int, seat: int, user_id: int, lang: str) -> discord.ui.View:
    """The host's Yes and No to someone who asks for a computer's seat during the game."""
    arg = f"{seat}-{user_id}"
    return components.view(
        components.button(game, version, "sit_yes", t(lang, "button.sit_yes"), arg=arg, style=Style.success,
                          emoji="🪑"),
        components.button(game, version, "sit_no", t(lang, "button.sit_no"), arg=arg, style=Style.danger),
    )


def leave_view(game: int, version: int, lang: str) -> discord.ui.View:
    """`/turista leave` during a game: hand the seat to a computer (the default), or leave the game for good."""
    return components.view(
        components.button(game, version, "hand_over", t(lang, "button.hand_over"), style=Style.primary, emoji="🤖"),
        components.button(game, version, "withdraw", t(lang, "button.withdraw"), style=Style.danger, emoji="🏳️"),
        components.button(game, version, "dismiss", t(lang, "button.dismiss")),
    )
