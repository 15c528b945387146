"""The link that invites the bot to a server, with the permissions it needs in every channel where people play.

One number serves the bot's own guide (`turista run` without a token) and the guides in README.md and docs/;
tests/test_docs.py checks that every invite link there carries it. Kept apart from discord.py so that the
guide needs no import of it; the test checks the bits against `discord.Permissions`.
"""

from __future__ import annotations

# Discord's permission bits (https://discord.com/developers/docs/topics/permissions), by the names its client shows.
NEEDED: dict[str, int] = {
    "View Channel": 1 << 10,
    "Send Messages": 1 << 11,
    "Embed Links": 1 << 14,
    "Attach Files": 1 << 15,
    "Read Message History": 1 << 16,
    # A game is played in a thread of its own (a house rule, on by default); without these two it stays in
    # the channel and its lobby says why.
    "Create Public Threads": 1 << 35,
    "Send Messages in Threads": 1 << 38,
}

PERMISSIONS = sum(NEEDED.values())

SCOPES = ("bot", "applications.commands")


def invite_link(application_id: str = "APP_ID") -> str:
    """The invite link of the application `application_id` (the guides leave APP_ID for the reader to replace)."""
    return (f"https://discord.com/oauth2/authorize?client_id={application_id}&scope={'+'.join(SCOPES)}"
            f"&permissions={PERMISSIONS}")


def permission_names() -> str:
    """'View Channel, Send Messages, ... and Send Messages in Threads', as the guides list them."""
    *first, last = NEEDED
    return f"{', '.join(first)} and {last}"


__all__ = ["NEEDED", "PERMISSIONS", "SCOPES", "invite_link", "permission_names"]
