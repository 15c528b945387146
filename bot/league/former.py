"""The name of a forgotten person in every past game: the language-neutral stored form and how a reader shows it
are the words' (`words.former`), since the pictures draw it too; the league names them here for the store and
the bot's messages."""

from __future__ import annotations

from words import former_letter, former_name, is_former, shown_name

__all__ = ["former_letter", "former_name", "is_former", "shown_name"]
