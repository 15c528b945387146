"""The bot assembled: the client with every slash command and the one component router.

The layers of `bot`, bottom to top: the client and the sessions; the handlers (lobby, play, trades,
router) that reach the client through `interaction.client`; the slash commands; this module.
`tests/test_boundaries.py` keeps imports flowing downwards only.
"""

from __future__ import annotations

from bot.client import TuristaBot
from bot.commands import all_commands
from bot.config import Config
from bot.handlers import router


def build_bot(config: Config) -> TuristaBot:
    return TuristaBot(config, commands=all_commands(), components=router.handle)
