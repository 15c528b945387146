"""The slash commands' registration with Discord: the payload a start would send, its digest (a start registers
only what changed since Discord last accepted it), and Discord's refusal in a reader's words.

A refused registration leaves Discord with the commands it had. The bot goes on with those, and says so in the
log and in `turista status`; when Discord has none the bot cannot be used at all, so it stops with
`REFUSED_EXIT`, which its systemd unit does not restart (a restart would only be refused again). Discord's rules
for a registration, which `turista commands check` holds offline, are the fake Discord's
(`bot.commands.registration.registration_problems`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

if TYPE_CHECKING:
    from bot.table.storage import Storage

log = logging.getLogger("turista.bot")

REFUSED_EXIT = 3  # deploy/turista.service lists it in RestartPreventExitStatus
GLOBAL = 0  # the guild id kept for the global registration (a guild's own is kept under its id)

_REFUSAL_LINE = re.compile(r"^In (\S+): (.*)$")


class RegistrationRefused(Exception):
    """Discord refused the registration and has no command of this bot: there is nothing to run with."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


@dataclass(frozen=True)
class Outcome:
    """What a registration did: "unchanged" (Discord has this payload already: nothing sent), "synced", or
    "refused" (Discord kept the `commands` it had; `reason` names the command and the field)."""

    action: str
    commands: int
    reason: str = ""


async def payload(tree: app_commands.CommandTree[Any],
                  guild: discord.abc.Snowflake | None = None) -> list[dict[str, Any]]:
    """The JSON body `tree.sync(guild=guild)` sends: each command's payload, translated by the tree's translator.
    `get_translated_payload` is what `CommandTree.sync` itself calls for it."""
    translator = tree.translator
    commands = tree.get_commands(guild=guild)
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


def digest(commands: Sequence[Mapping[str, Any]]) -> str:
    """A digest of a registration payload: equal payloads, equal digests, whatever the order of their keys."""
    canonical = json.dumps(commands, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


# -- a refusal in a reader's words -------------------------------------------------------------------------
def named(commands: Sequence[Mapping[str, Any]], path: str) -> str:
    """Where `path` (`0.options.6.options.0.max_value`, the error tree's keys) is: `/turista ranking, option
    season`. Command and subcommand names come from the payload itself."""
    parts = path.split(".")
    if not parts or not parts[0].isdigit() or int(parts[0]) >= len(commands):
        return ""
    node: Mapping[str, Any] = commands[int(parts[0])]
    command, extra = [str(node.get("name"))], ""
    rest = parts[1:]
    while len(rest) >= 2 and rest[0] in ("options", "choices") and rest[1].isdigit():
        children = node.get(rest[0]) or []
        index = int(rest[1])
        if index >= len(children):
            break
        node = children[index]
        if rest[0] == "choices":
            extra += f", choice {node.get('name')!r}"
        elif node.get("type") in (1, 2):  # a subcommand or a group: part of the command's name
            command.append(str(node.get("name")))
        else:
            extra += f", option {node.get('name')}"
        rest = rest[2:]
    return "/" + " ".join(command) + extra


def indexed(path: str) -> str:
    """`0.options.6.max_value` as `command[0].options[6].max_value`."""
    out = re.sub(r"\.(\d+)(?=\.|$)", r"[\1]", path)
    return re.sub(r"^(\d+)", r"command[\1]", out)


def reason(commands: Sequence[Mapping[str, Any]], path: str, message: str) -> str:
    """One problem at `path` of the error tree, in a reader's words: `command[0].options[6].max_value (/turista
    ranking, option season): <message>`; `the registration: <message>` for the whole body (path "")."""
    where = named(commands, path)
    return f"{indexed(path) or 'the registration'}{f' ({where})' if where else ''}: {message}"


def refusal_reasons(text: str, commands: Sequence[Mapping[str, Any]]) -> list[str]:
    """Each problem of Discord's error body, `command[0].options[6].options[0].max_value (/turista ranking, option
    season): <Discord's message>`. `text` is `HTTPException.text`, where discord.py lays the body's error tree out
    flat, one `In <path>: <message>` line per field."""
    reasons = []
    for line in text.splitlines()[1:]:
        found = _REFUSAL_LINE.match(line.strip())
        if found is None:
            continue
        path, message = found.groups()
        reasons.append(reason(commands, path, message))
    if not reasons:
        reasons.append(text.splitlines()[0] if text else "no reason given")
    return reasons


def refusal_line(error: discord.HTTPException, commands: Sequence[Mapping[str, Any]]) -> str:
    return (f"Discord refused the command registration ({error.status}, code {error.code}): "
            + "; ".join(refusal_reasons(error.text, commands)))


# -- registering ------------------------------------------------------------------------------------------
async def register(tree: app_commands.CommandTree[Any], storage: Storage, *, application_id: int,
                   guild: discord.abc.Snowflake | None = None, force: bool = False) -> Outcome:
    """Register the tree's commands (globally, or in `guild`) unless Discord already has exactly these (the
    digest kept in the store says so), or always with `force`.

    Discord refusing them (a 4xx) is not fatal while it still has commands of this bot: those are fetched, the
    refusal is logged and kept in the store (`turista status` tells it), and the bot goes on with them. With none,
    `RegistrationRefused` carries the one line to print before stopping.
    """
    body = await payload(tree, guild)
    wanted = digest(body)
    scope = guild.id if guild is not None else GLOBAL
    kept = await storage.registration(application_id, scope)
    if not force and kept is not None and kept.digest == wanted and kept.refused is None:
        return Outcome("unchanged", len(body))
    try:
        await tree.sync(guild=guild)
    except discord.HTTPException as error:
        if not 400 <= error.status < 500:
            raise
        line = refusal_line(error, body)
        try:
            present = await tree.fetch_commands(guild=guild)
        except discord.HTTPException:
            present = []
        await storage.registration_refused(application_id, scope, line, len(present))
        if not present:
            raise RegistrationRefused(
                f"{line.rstrip('.')}. Discord has no command of this bot, so nobody could use it: the bot stops "
                f"(exit status {REFUSED_EXIT}, which systemd does not restart). `turista commands check` shows the "
                "problem without Discord.") from error
        log.warning("%s. Going on with the %d commands Discord already has; `turista commands check` shows the "
                    "problem without Discord", line.rstrip("."), len(present))
        return Outcome("refused", len(present), line)
    await storage.registered(application_id, scope, wanted)
    return Outcome("synced", len(body))
