"""The sandbox session: the fake Discord, the bot process, the users, and the read–act–print loop."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

from bot.sandbox.inputs import Choose, Press, Slash, Switch, Verb, parse
from bot.sandbox.printer import Printer
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.replies import DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, MODAL, Reply

HELP = """\
Escribe como en Discord / type as in Discord:
  /turista new            /turista join       /turista start      /roll      /buy
  /mortgage Argentina     /bid 12000          /turista board      /turista help
  3   or   press Tirar    press a button by its number or label
  select 2 Argentina      choose in a select (values separated by commas)
  as Beto                 play as another person at the table
  look · wait 5 · quit    show the table again · let the bot play for 5 s · leave
"""

# Option types of Discord application commands.
SUB_COMMAND, SUB_GROUP, STRING, INTEGER, BOOLEAN, USER, NUMBER = 1, 2, 3, 4, 5, 6, 10


class Sandbox:
    def __init__(self, args: argparse.Namespace, names: list[str]) -> None:
        self.args = args
        self.names = names
        self.out = args.out
        self.out.mkdir(parents=True, exist_ok=True)
        scripted = args.script is not None
        self.printer = Printer(self.out, open_pictures=not (scripted or args.no_open or not sys.stdout.isatty()))
        self.fake = FakeDiscord()
        self.users: dict[str, FakeUser] = {}
        self.me: FakeUser | None = None
        self.script: deque[str] = deque()
        if scripted:
            self.script.extend(args.script.read_text(encoding="utf-8").splitlines())
        self._pending_computers = 0

    # -- the session ------------------------------------------------------------------------------------
    async def run(self) -> int:
        locale = "es-MX" if self.args.lang == "es" else "en-US"
        async with self.fake:
            guild = self.fake.add_guild("Sandbox", locale=locale, channels=("turista",))
            self.channel = guild.channel("turista")
            for name in self.names:
                user = self.fake.add_user(name, guild, locale=locale)
                self.users[name.casefold()] = user
                self.printer.names[user.id] = user.name
            self.me = self.users[self.names[0].casefold()]
            process = await self.fake.launch("bot", log_path=self.out / "bot.log", env=self._bot_env())
            try:
                await self.fake.wait_for_commands(timeout=30)
                self.say(f"Turista sandbox · #{self.channel.name} · {', '.join(self.names)}")
                self.say(f"Fotos / pictures: {self.out}/ · bot log: {self.out / 'bot.log'}")
                if self.args.script is None:
                    self.say(HELP)
                code = 0
                async for line in self._lines():
                    if not await self.handle(line):
                        break
                if not process.running:
                    self.say("The bot stopped: see the log.")
                    code = 1
            finally:
                await process.stop()
            errors = self.fake.errors
            for e in errors:
                self.say(f"! Discord rejected: {e.kind} {e.method} {e.path} {e.message}")
            return code or (1 if errors else 0)

    def _bot_env(self) -> dict[str, str]:
        env = {
            "DISCORD_TOKEN": "sandbox",
            "TURISTA_DB": str(self.out / "sandbox.db"),
            "TURISTA_PACE": str(self.args.pace),
            "TURISTA_LOG_LEVEL": "WARNING",
        }
        if self.args.seed is not None:
            env["TURISTA_SEED"] = str(self.args.seed)
        # The sandbox's table must not inherit a real server's settings (a dev guild, a database…).
        blanked = {k: "" for k in os.environ if k.startswith(("TURISTA_", "DISCORD_"))}
        return {**blanked, **env}

    async def _lines(self) -> AsyncIterator[str]:
        if self.args.script is not None:
            while self.script:
                raw = self.script.popleft()
                if raw.strip() and not raw.lstrip().startswith("#"):
                    self.say(f"{self.me.name}> {raw.strip()}")
                yield raw
            return
        loop = asyncio.get_running_loop()
        while True:
            try:
                raw = await loop.run_in_executor(None, input, f"{self.me.name}> ")
            except EOFError:
                return
            yield raw

    def say(self, text: str) -> None:
        print(text, flush=True)

    # -- one input ----------------------------------------------------------------------------------------
    async def handle(self, line: str) -> bool:
        """Act on one line; False ends the session."""
        try:
            meaning = parse(line)
        except ValueError as err:
            self.say(f"? {err}")
            return True
        try:
            if isinstance(meaning, Verb):
                return await self._verb(meaning)
            if isinstance(meaning, Switch):
                self._switch(meaning.name)
            elif isinstance(meaning, Slash):
                await self._answer(await self._slash(meaning))
            elif isinstance(meaning, Press):
                control = self.printer.find(meaning.target, select=False)
                await self._answer(await self.fake.click(self.me, control.message, control.component["custom_id"]))
            elif isinstance(meaning, Choose):
                await self._choose(meaning)
        except LookupError as err:
            self.say(f"? No encuentro / cannot find: {err.args[0] if err.args else line}")
        except (AssertionError, KeyError, TypeError, ValueError, PermissionError) as err:
            self.say(f"? {err}")
        return True

    async def _verb(self, verb: Verb) -> bool:
        if verb.name in ("quit", "exit", "salir"):
            return False
        if verb.name in ("help", "ayuda"):
            self.say(HELP)
        elif verb.name in ("look", "ver"):
            table = [m for m in self.fake.messages(self.channel, include_ephemeral=False) if m.attachments]
            if table:
                for line in self.printer.show(table[-1]):
                    self.say(line)
        else:
            await self._settle(quiet=float(verb.arg or 3))
        return True

    def _switch(self, name: str) -> None:
        user = self.users.get(name.casefold())
        if user is None:
            raise LookupError(name)
        self.me = user
        self.say(f"(ahora eres / you are now {user.name})")

    async def _choose(self, choose: Choose) -> None:
        control = self.printer.find(choose.target, select=True)
        options = control.component.get("options") or []
        values: list[Any] = []
        for wanted in choose.values:
            if control.component.get("type") == USER:
                values.append(self.users[wanted.casefold()])
                continue
            w = wanted.casefold()
            exact = (o for o in options if w in (o.get("label", "").casefold(), str(o.get("value")).casefold()))
            hit = next(exact, None)
            hit = hit or next((o for o in options if o.get("label", "").casefold().startswith(w)), None)
            if hit is None:
                raise LookupError(wanted)
            values.append(hit["value"])
        await self._answer(await self.fake.select(self.me, control.message, control.component["custom_id"], values))

    # -- slash commands -----------------------------------------------------------------------------------
    async def _slash(self, cmd: Slash) -> Reply:
        if not cmd.words:
            raise LookupError("/")
        registered = {c["name"]: c for c in self.fake.commands() + self.fake.commands(self.channel.guild)}
        top = registered.get(cmd.words[0])
        if top is None:
            raise LookupError(f"/{cmd.words[0]}")
        path, spec, rest = [top["name"]], top, cmd.words[1:]
        while rest and any(o["type"] in (SUB_COMMAND, SUB_GROUP) for o in spec.get("options") or []):
            sub = next((o for o in spec["options"] if o["name"] == rest[0]), None)
            if sub is None:
                raise LookupError(f"/{' '.join(path)} {rest[0]}")
            path.append(sub["name"])
            spec, rest = sub, rest[1:]
        command = " ".join(path)
        params = [o for o in spec.get("options") or [] if o["type"] not in (SUB_COMMAND, SUB_GROUP)]
        raw = dict(cmd.named)
        free = [o for o in params if o["name"] not in raw]
        for i, word in enumerate(rest):
            if i >= len(free):
                break
            # The last free option takes the remaining words: property names have spaces.
            raw[free[i]["name"]] = " ".join(rest[i:]) if i == len(free) - 1 else word
        if command == "turista new" and "edition" not in raw and any(o["name"] == "edition" for o in params):
            raw["edition"] = self.args.edition
        options = {}
        for opt in params:
            if opt["name"] in raw:
                options[opt["name"]] = await self._typed(command, opt, raw[opt["name"]], options)
        reply = await self.fake.slash(self.me, self.channel, command, options)
        if command == "turista new":
            self._pending_computers = self.args.computers
        return reply

    async def _typed(self, command: str, opt: dict[str, Any], value: str, filled: dict[str, Any]) -> Any:
        kind = opt["type"]
        if kind == USER:
            user = self.users.get(value.casefold().lstrip("@"))
            if user is None:
                raise LookupError(value)
            return user
        if kind == BOOLEAN:
            return value.casefold() in ("1", "true", "yes", "si", "sí", "on")
        if opt.get("autocomplete"):
            choices = await self.fake.autocomplete(
                self.me, self.channel, command, focused=opt["name"], value=value, options=filled
            )
            v = value.casefold()
            hit = next((c for c in choices if c["name"].casefold() == v), None)
            hit = hit or next((c for c in choices if c["name"].casefold().startswith(v)), None)
            hit = hit or (choices[0] if choices else None)
            if hit is None:
                return value if kind == STRING else int(value)
            return hit["value"]
        choices = opt.get("choices") or []
        for c in choices:
            if value.casefold() in (c["name"].casefold(), str(c["value"]).casefold()):
                return c["value"]
        if kind == INTEGER:
            return int(value.replace(",", "").replace("$", ""))
        if kind == NUMBER:
            return float(value)
        return value

    # -- printing what the bot did ----------------------------------------------------------------------
    async def _answer(self, reply: Reply) -> None:
        before = self._versions()
        await reply.wait(timeout=10)
        if reply.response_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            # The bot is still working (drawing the board, saving the game): wait for what it posts.
            with contextlib.suppress(TimeoutError):
                await self.fake.wait_for(lambda: self._versions() != before, timeout=30, what="the bot's answer")
        if reply.response_type == MODAL:
            await self._modal(reply)
            return
        if reply.message is not None and reply.message.ephemeral:
            await reply.wait_message(timeout=10)
            for line in self.printer.show(reply.message, private=True):
                self.say(line)
        await self._settle()
        if self._pending_computers:
            await self._add_computers()

    async def _add_computers(self) -> None:
        count, self._pending_computers = self._pending_computers, 0
        for _ in range(count):
            lobby = self._newest_with_buttons()
            control = next(
                (c for c in self.printer.controls if c.message is lobby and "addbot" in c.component["custom_id"]), None
            )
            if control is None:
                return
            self.say(f"(sandbox: {control.label})")
            await self._answer(await self.fake.click(self.me, control.message, control.component["custom_id"]))

    def _versions(self) -> dict[int, int]:
        return {m.id: len(m.history) for m in self.fake.messages(self.channel) if not m.loading}

    def _newest_with_buttons(self) -> FakeMessage | None:
        with_buttons = [m for m in self.fake.messages(self.channel, include_ephemeral=False) if m.buttons()]
        return with_buttons[-1] if with_buttons else None

    async def _modal(self, reply: Reply) -> None:
        modal = reply.modal or {}
        self.say(f"── {modal.get('title', '')} (formulario / form)")
        values: dict[str, str] = {}
        for row in modal.get("components") or []:
            for comp in row.get("components") or ([row.get("component")] if row.get("component") else []):
                if not comp or not comp.get("custom_id"):
                    continue
                label = comp.get("label") or row.get("label") or comp["custom_id"]
                values[comp["custom_id"]] = await self._ask(f"   {label}: ")
        await self._answer(await self.fake.submit_modal(self.me, self.channel, modal["custom_id"], values))

    async def _ask(self, prompt: str) -> str:
        """One field of a form: the next line of the script, or what the user types."""
        if self.args.script is not None:
            if not self.script:
                raise ValueError("the script ended in the middle of a form")
            value = self.script.popleft().strip()
            self.say(f"{prompt}{value}")
            return value
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, input, prompt)

    async def _settle(self, quiet: float = 1.0, cap: float = 60.0) -> None:
        """Print the bot's messages as they come, until it has been quiet for `quiet` seconds."""
        start = last_change = time.monotonic()
        while time.monotonic() - last_change < max(quiet, self.args.pace * 2 + 0.3):
            changed = self.printer.changed(self.fake.messages(self.channel, include_ephemeral=False))
            for message in changed:
                for line in self.printer.show(message):
                    self.say(line)
                last_change = time.monotonic()
            if time.monotonic() - start > cap:
                break
            await asyncio.sleep(0.05)
