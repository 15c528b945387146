"""`turista commands check` / `turista commands sync`: the slash commands' registration, checked without Discord
against its published rules, or sent to Discord now.

A start of the bot sends the registration only when it changed since Discord last accepted it (a digest kept in
the database); `sync` sends it whatever the digest says and keeps the new one, so that the next start sends none.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot import registration
from bot.config import Config, has_token, load_config

REFUSED = 1  # `sync`: Discord refused the registration but keeps the commands it had


def _count(commands: list[dict[str, Any]]) -> tuple[int, int]:
    """(commands and subcommands people can type, options of theirs)."""
    typed = options = 0

    def walk(node: dict[str, Any]) -> None:
        nonlocal typed, options
        children = node.get("options") or []
        if any(child.get("type") in (1, 2) for child in children):
            for child in children:
                walk(child)
        else:
            typed += 1
            options += len(children)

    for command in commands:
        walk(command)
    return typed, options


def summary(commands: list[dict[str, Any]]) -> list[str]:
    """What the registration holds, in a few lines."""
    from fakediscord.limits import COMMAND_SIZE_MAX, command_size

    typed, options = _count(commands)
    locales: set[str] = set()

    def gather(node: dict[str, Any]) -> None:
        for field in ("name_localizations", "description_localizations"):
            locales.update(node.get(field) or {})
        for child in [*(node.get("options") or []), *(node.get("choices") or [])]:
            gather(child)

    for command in commands:
        gather(command)
    largest = max(commands, key=command_size) if commands else None
    lines = [f"{len(commands)} top-level commands, {typed} to type with {options} options in all; localised in "
             f"{', '.join(sorted(locales)) or 'no locale'}"]
    if largest is not None:
        lines.append(f"the largest, /{largest['name']}, counts {command_size(largest):,} of Discord's "
                     f"{COMMAND_SIZE_MAX:,} characters for a command")
    return lines


def check(spec_arg: str | None) -> int:
    """Print the summary and every problem Discord would refuse the registration for: the documented rules, and
    the schema of the route when Discord's OpenAPI description is at hand (`spec_arg`, else the fake Discord's:
    $TURISTA_DISCORD_SPEC or the repository's reference copy). One that was named must be there."""
    from bot.commands.registration import problem_lines, registration_payload
    from fakediscord import spec as discord_spec

    commands = asyncio.run(registration_payload())
    spec_path = Path(spec_arg) if spec_arg else discord_spec.spec_path()
    if not spec_path.is_file() and (spec_arg or os.environ.get(discord_spec.SPEC_ENV)):
        print(f"no OpenAPI description at {spec_path}", file=sys.stderr)
        return 2
    spec = discord_spec.load_spec(spec_path) if spec_path.is_file() else None
    for line in summary(commands):
        print(line)
    if spec is not None:
        print(f"checked against Discord's schema of the route ({spec_path}) and its documented rules")
    else:
        print(f"checked against Discord's documented rules only: no OpenAPI description at {spec_path} (give one "
              "with --spec or TURISTA_DISCORD_SPEC: openapi.json of github.com/discord/discord-api-spec)")
    problems = problem_lines(commands, spec)
    if not problems:
        print("no problem found: Discord should accept it")
        return 0
    print(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} Discord would refuse the whole registration "
          "for:")
    for problem in problems:
        print(f"  {problem}")
    return 1


async def _sync(config: Config) -> int:
    import discord

    from bot.commands.registration import command_tree
    from bot.store import Store
    from bot.table.storage import Storage

    client = discord.Client(intents=discord.Intents.none())
    async with client:
        try:
            await client.login(config.token)
        except discord.LoginFailure:
            print("Discord refused the token in DISCORD_TOKEN", file=sys.stderr)
            return 2
        assert client.application_id is not None  # known once logged in
        tree = await command_tree(client, guild=config.dev_guild)
        guild = discord.Object(config.dev_guild) if config.dev_guild else None
        storage = Storage(await asyncio.to_thread(Store, config.db))
        try:
            outcome = await registration.register(tree, storage, application_id=client.application_id,
                                                  guild=guild, force=True)
        except registration.RegistrationRefused as refused:
            print(refused.line, file=sys.stderr)
            return registration.REFUSED_EXIT
        finally:
            await asyncio.to_thread(storage.close)
            storage.store.close()
    where = f" to guild {config.dev_guild}" if config.dev_guild else ""
    if outcome.action == "refused":
        print(f"{outcome.reason.rstrip('.')}. Discord keeps the {outcome.commands} commands it had.", file=sys.stderr)
        return REFUSED
    print(f"registered{where}: {outcome.commands} top-level commands; the bot's next start sends none")
    return 0


def parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="The slash commands' registration with Discord.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    checking = actions.add_parser("check", help="check the registration against Discord's rules, without Discord",
                                  description="Build the registration a start would send and check it against "
                                  "Discord's documented rules (the fake Discord's), and against the schema of its "
                                  "OpenAPI description when there is one. Status 1 when Discord would refuse it.")
    checking.add_argument("--spec", metavar="OPENAPI_JSON", default=None,
                          help="Discord's OpenAPI description (default: $TURISTA_DISCORD_SPEC, else "
                          "shared/reference/discord/openapi.json beside the repository, when it is there)")
    actions.add_parser("sync", help="send the registration to Discord now (DISCORD_TOKEN), and keep its digest",
                       description="Send the registration to Discord with the bot's token (DISCORD_TOKEN, "
                       "TURISTA_DEV_GUILD and TURISTA_DB as `turista run` reads them) and keep its digest in the "
                       "database, so the next start sends none. Status 1 if Discord refused it and keeps the "
                       f"commands it had, {registration.REFUSED_EXIT} if it has none.")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "python -m bot.commands") -> int:
    args = parser(prog).parse_args(argv)
    # What the registration logs for the bot's journal, this command prints itself.
    logging.getLogger("turista.bot").addHandler(logging.NullHandler())
    if args.action == "check":
        return check(args.spec)
    config = load_config()
    if not has_token(config, "commands sync"):
        return 2
    if not Path(config.db).parent.exists() and "://" not in config.db:
        print(f"no folder for the database {config.db}", file=sys.stderr)
        return 2
    return asyncio.run(_sync(config))


if __name__ == "__main__":
    sys.exit(main())
