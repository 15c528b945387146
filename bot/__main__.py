"""`python -m bot`: run the Turista bot with the settings of the environment or `.env`."""

from __future__ import annotations

import logging
import sys

from bot.config import Config, load_config

# The integer of the permissions the bot needs in a channel: View Channel, Send Messages, Embed Links,
# Attach Files and Read Message History.
PERMISSIONS = 1024 | 2048 | 16384 | 32768 | 65536

NO_TOKEN_GUIDE = f"""\
Turista needs a Discord bot token, and DISCORD_TOKEN is not set.

 1. Open https://discord.com/developers/applications and press "New Application"; give it a name.
 2. In "Bot", press "Reset Token" and copy the token. No privileged intents are needed.
 3. Put it in a file named .env next to where you run the bot (see .env.example):
        DISCORD_TOKEN=the-token-you-copied
        TURISTA_DB=turista.db
    or export DISCORD_TOKEN in the environment. Keep it secret: anyone with it controls the bot.
 4. Invite the bot to your server with this link (replace APP_ID with the "Application ID" of
    "General Information"); scopes bot + applications.commands, permissions View Channel, Send
    Messages, Embed Links, Attach Files and Read Message History:
        https://discord.com/oauth2/authorize?client_id=APP_ID&scope=bot+applications.commands&permissions={PERMISSIONS}
 5. Start it again with: python -m bot
    While developing, set TURISTA_DEV_GUILD to your server's id so commands appear at once.

To try the game without Discord, play at a local table against the bundled fake Discord:
        python -m bot sandbox
"""


def configure_logging(level: str) -> None:
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def main() -> int:
    if sys.argv[1:2] == ["sandbox"]:
        from bot.sandbox import main as sandbox

        return sandbox(sys.argv[2:])
    config: Config = load_config()
    if not config.token:
        sys.stderr.write(NO_TOKEN_GUIDE)
        return 2
    configure_logging(config.log_level)
    from bot.app import build_bot  # discord.py is only imported when there is something to run

    bot = build_bot(config)
    # Our own logging setup above; discord.py must not add a second handler.
    bot.run(config.token, log_handler=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
