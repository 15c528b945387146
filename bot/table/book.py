"""Which message of a game shows which version: the book the table and its face keep together, as plain data.

A game in play keeps a few messages that carry a decision (`TRACKED`): the table, an open auction, a pending
trade offer. Where each is and which version it shows lives in the store (`messages`), so that a restart finds
them all; the book is that record in memory, with what is not in the store yet:

- a post is marked in the store before it is sent (`posting`: a post in doubt until its message id is recorded);
  a new turn's table is marked in the same write as the move that makes it (`posts_ahead`, `marked`);
- an edit is recorded with the next move (or at a stop), not in a write of its own (`unrecorded`): a crash before
  that costs one edit at the next start-up.
"""

from __future__ import annotations

from dataclasses import replace

from bot.store import MessageRow

TRACKED = ("table", "auction", "offer")  # the kinds of message a game in play keeps (the lobby has its own)


class Book:
    def __init__(self, messages: dict[str, MessageRow]) -> None:
        self.messages: dict[str, MessageRow] = {k: m for k, m in messages.items() if k in TRACKED}
        self.unrecorded: dict[str, MessageRow] = {}  # edits made since the store last heard of them
        self._marked: dict[str, int] = {}  # posts whose mark went in with a move: kind -> version

    def message_id(self, kind: str) -> int | None:
        row = self.messages.get(kind)
        return None if row is None else row.message_id

    def editable(self, kind: str) -> bool:
        """Whether the message of `kind` is known and no post of it is in doubt (a post that failed or was cut
        may have gone out: it is sent again with its nonce rather than left beside an edited one)."""
        row = self.messages.get(kind)
        return row is not None and row.message_id is not None and row.posting is None

    # -- with a move -------------------------------------------------------------------------------------
    def posts_ahead(self, events: list[dict], channel_id: int) -> list[tuple[str, int]]:
        """The posts `events` will make that can be marked in the store with the move itself (kind, channel id):
        a new turn's table, unless a post of the table is in doubt (that one is sent again first)."""
        row = self.messages.get("table")
        if (row is None or row.posting is None) and any(e["code"] == "turn_started" for e in events):
            return [("table", channel_id)]
        return []

    def marked(self, posting: list[tuple[str, int]], version: int) -> None:
        """The store holds the marks of `posting` (`posts_ahead`) for `version`: a crash from now on finds them,
        so from now on each is a post in doubt until it is recorded."""
        for kind, channel_id in posting:
            self.in_doubt(kind, channel_id, version)
            self._marked[kind] = version

    def take_unrecorded(self) -> list[MessageRow]:
        """The edits to record now (with a move, or on their own at a stop or after a restore)."""
        shown, self.unrecorded = list(self.unrecorded.values()), {}
        return shown

    # -- as the face posts and edits -----------------------------------------------------------------------
    def in_doubt(self, kind: str, channel_id: int, version: int) -> None:
        """The message of `kind` is being posted for `version`: in doubt until its id is recorded. The message it
        replaces stays known meanwhile, as the store keeps it (`Store.intend_post`)."""
        old = self.messages.get(kind)
        self.messages[kind] = MessageRow(kind, channel_id, old.message_id if old else None,
                                         old.version if old else version, posting=version)
        self.unrecorded.pop(kind, None)

    def mark_taken(self, kind: str, version: int) -> bool:
        """Whether the mark of this post of `kind` went in with the move (so the face need not write one)."""
        return self._marked.pop(kind, None) == version

    def posted(self, kind: str, channel_id: int, message_id: int, version: int) -> None:
        self.messages[kind] = MessageRow(kind, channel_id, message_id, version)

    def shown(self, kind: str, version: int) -> None:
        """The message of `kind` was edited to show `version` (recorded with the next move)."""
        self.messages[kind] = self.unrecorded[kind] = replace(self.messages[kind], version=version, posting=None)

    def dropped(self, kind: str) -> None:
        """The decision of `kind` is over: its message is no longer followed."""
        self.messages.pop(kind, None)
        self.unrecorded.pop(kind, None)
