"""The bot's own texts (`bot.*` in `data/i18n/<lang>/bot.toml`) and localised command names."""

from __future__ import annotations

import discord
from discord import app_commands

from words import DEFAULT_LANGUAGE, Catalogue, language_of

# The bot's catalogue: the game's texts and its own (data/i18n/<lang>/bot.toml).
BOT = Catalogue("bot")


def t(lang: str, key: str, *, variant: str | None = None, **params: object) -> str:
    """The bot text `bot.<key>` in `lang`; `variant` (an edition id) picks that edition's own wording."""
    return BOT.text(lang, f"bot.{key}", variant=variant, **params)


def lang_of(interaction: discord.Interaction) -> str:
    """The player's language: the client's locale, which Discord sends with every interaction."""
    return language_of(str(interaction.locale))


def ls(default: str, key: str) -> app_commands.locale_str:
    """A command name/description/choice whose translations are `bot.cmd.<key>` in each catalogue."""
    return app_commands.locale_str(default, key=key)


class CatalogueTranslator(app_commands.Translator):
    """Discord asks once per locale at sync; Spanish and English locales get our catalogue's words."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        key = string.extras.get("key")
        code = str(locale.value)
        lang = code.split("-")[0]
        if key is None or lang not in ("es", "en"):
            return None
        found = BOT.texts(lang).get(f"bot.cmd.{key}")
        if found is None and lang == DEFAULT_LANGUAGE:
            return None
        return found


__all__ = ["BOT", "CatalogueTranslator", "lang_of", "ls", "t"]
