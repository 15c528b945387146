"""The sandbox session: the fake Discord, the bot process, the users, and the read–act–print loop."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import IO, Any

from bot.sandbox.commands import USER, Refusal, fold, pick, resolve, typed_options
from bot.sandbox.inputs import BadLine, Choose, Press, Slash, Switch, Verb, parse
from bot.sandbox.printer import BOARD_PICTURE, Control, Printer, owner_of
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.replies import DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, MODAL, Reply
from words import Catalogue

# The sandbox's catalogue: the game's texts and its own (data/i18n/<lang>/sandbox.toml).
SANDBOX = Catalogue("sandbox")

MANAGE_GUILD = 1 << 5  # Discord's Manage Server permission
WAIT_QUIET = 3.0  # seconds of quiet that `wait` (without a number) waits for

# What the fake driver raises when a click or a command could not be sent (a message changed in between).
DRIVER_ERRORS = (LookupError, ValueError, TypeError, PermissionError)


class Sandbox:
    def __init__(self, args: argparse.Namespace, names: list[str]) -> None:
        self.args = args
        self.lang: str = args.lang
        self.names = names
        self.out = session_folder(args.out)
        scripted = args.script is not None
        self.printer = Printer(self.out, open_pictures=not (scripted or args.no_open or not sys.stdout.isatty()),
                               words=self.text)
        self.fake = FakeDiscord()
        self.printer.places = self.fake.state.channels  # threads too, for `<#id>` as #name
        self.users: dict[str, FakeUser] = {}
        self.me: FakeUser | None = None
        self.script: deque[str] = deque()
        if scripted:
            self.script.extend(args.script.read_text(encoding="utf-8").splitlines())
        self.record: IO[str] | None = None
        self.terminal = Terminal()
        self._pending_computers = 0

    def all_messages(self) -> list[FakeMessage]:
        """The table's channel and the game's thread, as one conversation."""
        return self.fake.messages(self.channel, threads=True)

    def public_messages(self) -> list[FakeMessage]:
        return self.fake.messages(self.channel, include_ephemeral=False, threads=True)

    def text(self, key: str, **params: object) -> str:
        return SANDBOX.text(self.lang, f"sandbox.{key}", **params)

    # -- the session ------------------------------------------------------------------------------------
    async def run(self) -> int:
        locale = "es-419" if self.lang == "es" else "en-US"
        # The terminal shows the table; what the fake Discord's server logs (a request cut short as the bot stops
        # at Ctrl+C, say) goes to the session's folder, beside the bot's own log.
        logging.basicConfig(filename=self.out / "fake-discord.log", level=logging.WARNING,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
        async with self.fake:
            guild = self.fake.add_guild("Sandbox", locale=locale, channels=("turista",))
            self.channel = guild.channel("turista")
            # The server's owner is nobody at the table: only --manager's person manages the server.
            managers = [self.fake.add_role(guild, "Gestión", permissions=MANAGE_GUILD)]
            manager = fold(self.args.manager or "")
            for name in self.names:
                user = self.fake.add_user(name, guild, locale=locale, roles=managers if fold(name) == manager else ())
                self.users[fold(name)] = user
                self.printer.names[user.id] = user.name
            self.me = self.users[fold(self.names[0])]
            process = await self.fake.launch("bot", log_path=self.out / "bot.log", env=self._bot_env())
            try:
                await self.fake.wait_for_commands(timeout=30)
                self.say(self.text("welcome", channel=self.channel.name, names=", ".join(self.names)))
                self.say(self.text("files", out=self.out, log=self.out / "bot.log"))
                if self.args.script is None:
                    self.say(self.text("help"))
                self.say(self.text("quit_hint"))
                watcher = asyncio.create_task(self._watch())
                try:
                    code = await self._loop()
                finally:
                    watcher.cancel()
                    await asyncio.gather(watcher, return_exceptions=True)
                if not process.running:
                    self.say(self.text("bot_stopped"))
                    code = 1
            finally:
                await process.stop()
            errors = self.fake.errors
            for e in errors:
                self.say(self.text("rejected", detail=f"{e.kind} {e.method} {e.path} {e.message}"))
            return code or (1 if errors else 0)

    async def _loop(self) -> int:
        path: Path | None = getattr(self.args, "record", None)
        with contextlib.ExitStack() as stack:
            if path is not None and self.args.script is None:
                self.record = stack.enter_context(path.open("w", encoding="utf-8"))
            async for line in self._lines():
                if not await self.handle(line):
                    break
        self.say(self.text("bye"))
        if self.record is not None:
            self.say(self.text("recorded", path=path))
        return 0

    def _bot_env(self) -> dict[str, str]:
        env = {
            "DISCORD_TOKEN": "sandbox",
            "TURISTA_DB": str(self.out / "sandbox.db"),
            "TURISTA_PACE": str(self.args.pace),
            "TURISTA_LOG_LEVEL": "WARNING",
            # One table: its pictures are drawn in a thread of the bot, without worker processes that would each
            # prepare every edition and language before the first board (seconds of CPU at every start).
            "TURISTA_RENDER_WORKERS": "0",
        }
        if self.args.seed is not None:
            env["TURISTA_SEED"] = str(self.args.seed)
        # The sandbox's table must not inherit a real server's settings (a dev guild, a database…).
        blanked = {k: "" for k in os.environ if k.startswith(("TURISTA_", "DISCORD_"))}
        return {**blanked, **env}

    async def _lines(self) -> AsyncIterator[str]:
        """The inputs: the script's lines, or what the person types until Ctrl+D (or /quit)."""
        if self.args.script is not None:
            while self.script:
                raw = self.script.popleft()
                if raw.strip() and not raw.lstrip().startswith("#"):
                    self.say(f"{self.me.name}> {raw.strip()}")
                yield raw
            return
        while True:
            try:
                raw = await self._input(f"{self.me.name}> ")
            except EOFError:
                self.say("")
                return
            yield raw

    async def _input(self, prompt: str) -> str:
        raw = await self.terminal.read(prompt)
        if self.record is not None:
            self.record.write(raw + "\n")
            self.record.flush()
        return raw

    def say(self, line: str) -> None:
        self.terminal.say([line])

    # -- one input ----------------------------------------------------------------------------------------
    async def handle(self, line: str) -> bool:
        """Act on one line; False ends the session."""
        try:
            meaning = parse(line)
            if isinstance(meaning, Verb):
                return await self._verb(meaning)
            if isinstance(meaning, Switch):
                self._switch(meaning.name)
            elif isinstance(meaning, Slash):
                await self._answer(await self._slash(meaning))
            elif isinstance(meaning, Press):
                control = self.printer.find(meaning.target, select=False)
                await self._answer(await self._use(control, None))
            elif isinstance(meaning, Choose):
                await self._choose(meaning)
        except BadLine as bad:
            self.say(f"? {self.text(bad.code)}")
        except Refusal as refusal:
            self.say(f"? {self.text(refusal.code, **refusal.params)}")
            # What changed since the screen was printed (often why the line was refused), with its numbers now.
            self._print_changed()
        except TimeoutError:
            self.say(f"? {self.text('no_answer')}")
        return True

    async def _verb(self, verb: Verb) -> bool:
        if verb.name == "quit":
            return False
        if verb.name == "help":
            self.say(self.text("help"))
        elif verb.name == "look":
            # The newest board: during an auction the newest picture is the title's deed, not the table.
            boards = [m for m in self.public_messages() if any(a.filename == BOARD_PICTURE for a in m.attachments)]
            if boards:
                self._show(boards[-1])
            else:
                self.say(self.text("no_board"))
        elif verb.arg:
            # N seconds by the clock: the table plays on and what it does prints as it happens (`_watch`).
            await asyncio.sleep(float(verb.arg))
            self._print_changed()
        else:
            # Until the table has been quiet for a moment, however long its computers take (a minute at most):
            # what a script waits with, so that it plays the same on a slow machine.
            await self._settle(quiet=WAIT_QUIET)
        return True

    def _switch(self, name: str) -> None:
        user = self.users.get(fold(name))
        if user is None:
            raise Refusal("not_a_person", name=name, names=", ".join(self.names))
        self.me = user
        self.say(self.text("you_are", name=user.name))

    async def _use(self, control: Control, values: list[Any] | None) -> Reply:
        """Click or choose on the message as it is now; a control that went away in between says so."""
        custom_id = control.component["custom_id"]
        try:
            if values is None:
                return await self.fake.click(self.me, control.message, custom_id)
            return await self.fake.select(self.me, control.message, custom_id, values)
        except DRIVER_ERRORS:
            raise Refusal("gone", label=control.label) from None

    async def _choose(self, choose: Choose) -> None:
        """Choose in a list. In a list of several, the values chosen are what stays ticked, as in Discord's
        client; `+X` ticks X and `-X` unticks it, keeping the rest as the list shows it ticked now."""
        control = self.printer.find(choose.target, select=True)
        component = control.component
        options = component.get("options") or []
        changes = control.several and any(w[:1] in "+-" and len(w) > 1 for w in choose.values)
        values: list[Any] = [o["value"] for o in options if o.get("default")] if changes else []
        for typed in choose.values:
            sign, wanted = (typed[0], typed[1:].strip()) if changes and typed[:1] in "+-" else ("", typed)
            if component.get("type") == USER:
                person = self.users.get(fold(wanted.lstrip("@")))
                if person is None:
                    raise Refusal("not_a_person", name=wanted, names=", ".join(self.names))
                values.append(person)
                continue
            # As Discord's autocomplete would: the label or value itself, else the one label a word of which
            # starts with what was typed ("lupita" is "🤖 Lupita", "velázquez" is "Calle Velázquez").
            index = next((i for i, o in enumerate(options) if fold(str(o.get("value"))) == fold(wanted)), None)
            if index is None:
                index = pick(wanted, [str(o.get("label", "")) for o in options])
            if index is None:
                raise Refusal("not_in_list", value=wanted, label=control.label,
                              choices=", ".join(o.get("label", "") for o in options))
            value = options[index]["value"]
            if sign == "-":
                values = [v for v in values if v != value]
            elif value not in values:
                values.append(value)
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise Refusal("list_count", label=control.label, min=low, max=high)
        await self._answer(await self._use(control, values))

    # -- slash commands -----------------------------------------------------------------------------------
    async def _slash(self, cmd: Slash) -> Reply:
        registered = self.fake.commands() + self.fake.commands(self.channel.guild)
        command = resolve(registered, cmd.words, cmd.named, self.lang)
        offers_edition = any(o["name"] == "edition" for o in command.params)
        if command.path == "turista new" and "edition" not in command.raw and offers_edition:
            command.raw["edition"] = self.args.edition

        async def autocomplete(option: Mapping[str, Any], value: str, filled: dict[str, Any]) -> list[dict[str, Any]]:
            return await self.fake.autocomplete(self.me, self.channel, command.path, focused=str(option["name"]),
                                                value=value, options=filled)

        options = await typed_options(command, self.lang, self.users, autocomplete)
        try:
            reply = await self.fake.slash(self.me, self.channel, command.path, options)
        except PermissionError:
            raise Refusal("no_command", command=command.shown) from None  # the client hides such commands
        if command.path == "turista new":
            self._pending_computers = self.args.computers
        return reply

    # -- printing what the bot did ----------------------------------------------------------------------
    def _show(self, message: FakeMessage) -> None:
        self.printer.track(self.all_messages())
        self.terminal.say(self.printer.show(message, viewer=self.me.id if self.me else None))

    def _visible(self) -> list[FakeMessage]:
        """What the people at the table see: the public messages, and the private ones the bot answered them
        with (edits of a private panel included: they are how a menu shows the choice just made)."""
        ours = {user.id for user in self.users.values()}
        return [m for m in self.all_messages() if not m.ephemeral or owner_of(m) in ours]

    def _print_changed(self) -> bool:
        """Print what is new or changed since it was last printed, in the order it happened."""
        changed = sorted(self.printer.changed(self._visible()), key=self.printer.changed_at)
        for message in changed:
            self._show(message)
        return bool(changed)

    async def _watch(self) -> None:
        """Print what the bot posts or changes the moment it does, while the person is idle at the prompt too: a
        computer's turn, an auction that closes, the clock's warning. (A change is printed once, whoever prints
        it first: this, or an input's wait for its answer.)"""
        while True:
            with contextlib.suppress(TimeoutError):
                await self.fake.wait_for(lambda: self.printer.changed(self._visible()), timeout=3600,
                                         what="a change at the table")
            self._print_changed()

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
            # A private answer prints with the rest, once the bot has finished it (not "thinking…").
            with contextlib.suppress(TimeoutError):
                await reply.wait_message(timeout=10)
        await self._settle()
        if self._pending_computers:
            await self._add_computers()

    async def _add_computers(self) -> None:
        count, self._pending_computers = self._pending_computers, 0
        for _ in range(count):
            lobby = self._newest_with_buttons()
            controls = self.printer.controls.get(lobby.id, []) if lobby is not None else []
            control = next((c for c in controls if "addbot" in c.component["custom_id"]), None)
            if control is None:
                return
            self.say(self.text("adding_computer", label=control.label))
            await self._answer(await self._use(control, None))

    def _versions(self) -> dict[int, int]:
        return {m.id: len(m.history) for m in self.all_messages() if not m.loading}

    def _newest_with_buttons(self) -> FakeMessage | None:
        with_buttons = [m for m in self.public_messages() if m.buttons()]
        return with_buttons[-1] if with_buttons else None

    async def _modal(self, reply: Reply) -> None:
        modal = reply.modal or {}
        self.say(self.text("form", title=modal.get("title", "")))
        values: dict[str, str] = {}
        for row in modal.get("components") or []:
            for comp in row.get("components") or ([row.get("component")] if row.get("component") else []):
                if not comp or not comp.get("custom_id"):
                    continue
                label = comp.get("label") or row.get("label") or comp["custom_id"]
                value = await self._ask(f"   {label}: ")
                # The client keeps the form open until each field fits; here the form is dropped, say why.
                low, high = comp.get("min_length", 0), comp.get("max_length", 4000)
                if comp.get("required", True) and not value:
                    raise Refusal("missing_field", field=label)
                if value and not low <= len(value) <= high:
                    raise Refusal("bad_length", option=label, min=low, max=high)
                values[comp["custom_id"]] = value
        await self._answer(await self.fake.submit_modal(self.me, self.channel, modal["custom_id"], values))

    async def _ask(self, prompt: str) -> str:
        """One field of a form: the next line of the script, or what the user types."""
        if self.args.script is not None:
            if not self.script:
                raise Refusal("form_ended")
            value = self.script.popleft().strip()
            self.say(f"{prompt}{value}")
            return value
        return await self._input(prompt)

    def _first_table_due(self) -> bool:
        """A game has just opened its thread and its first table (drawn first) is not there yet."""
        threads = self.fake.threads(self.channel)
        return any(not self.fake.messages(thread, include_ephemeral=False) for thread in threads)

    async def _settle(self, quiet: float = 1.0, cap: float = 60.0) -> None:
        """Print the bot's messages as they come or change, public and private, until it has been quiet for
        `quiet` seconds."""
        start = last_change = time.monotonic()
        while time.monotonic() - last_change < max(quiet, self.args.pace * 2 + 0.3) or self._first_table_due():
            if self._print_changed():
                last_change = time.monotonic()
            if time.monotonic() - start > cap:
                break
            await asyncio.sleep(0.05)


def session_folder(parent: Path) -> Path:
    """A new folder in `parent` for one session's pictures, database and bot log, named by the time it
    started (2026-12-03-0736, then 2026-12-03-0736-2 for a second one in the same minute)."""
    stamp = time.strftime("%Y-%m-%d-%H%M")
    parent.mkdir(parents=True, exist_ok=True)
    for n in range(1, 1000):
        folder = parent / (stamp if n == 1 else f"{stamp}-{n}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        return folder
    raise FileExistsError(parent / stamp)


class Terminal:
    """Lines typed at standard input, each read in a thread of its own that nothing waits for.

    In the event loop's default executor, Ctrl+C ended the session only once Enter was pressed: asyncio waits
    for that executor's threads at exit, and one of them was blocked in input(). A daemon thread is left
    behind instead; from a pipe it reads the file descriptor itself, because Python, ending while a thread
    waits in sys.stdin's buffered reader, stops with a fatal error about that reader's lock."""

    def __init__(self) -> None:
        self._pending = b""  # what was read from a pipe after the last line handed out
        self._prompt: str | None = None  # the prompt on screen while a line is being typed
        self._lock = threading.Lock()  # the reading thread writes the prompt, the event loop everything else

    def say(self, lines: list[str]) -> None:
        """Print `lines`. While a line is being typed they go above its prompt, shown again below them: what
        happens while the person is idle prints when it happens."""
        with self._lock:
            out = sys.stdout
            if self._prompt is not None:
                out.write("\r\033[K" if out.isatty() else "\n")  # the prompt's line cleared, or ended
            out.write("".join(f"{line}\n" for line in lines))
            if self._prompt is not None:
                out.write(self._prompt)
            out.flush()

    async def read(self, prompt: str) -> str:
        """The next line (without its end); EOFError at Ctrl+D or the end of the input."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str] = loop.create_future()

        def deliver(line: str, error: BaseException | None) -> None:
            if answer.done():
                return
            if error is not None:
                answer.set_exception(error)
            else:
                answer.set_result(line)

        def read() -> None:
            try:
                line, error = self._line(prompt), None
            except (EOFError, OSError, ValueError) as exc:  # Ctrl+D, or standard input closed
                line, error = "", EOFError(str(exc))
            with contextlib.suppress(RuntimeError):  # the session ended meanwhile and its loop is closed
                loop.call_soon_threadsafe(deliver, line, error)

        threading.Thread(target=read, name="sandbox-input", daemon=True).start()
        return await answer

    def _line(self, prompt: str) -> str:
        with self._lock:
            sys.stdout.write(prompt)
            sys.stdout.flush()
            self._prompt = prompt
        try:
            return self._typed()
        finally:
            with self._lock:
                self._prompt = None

    def _typed(self) -> str:
        if sys.stdin.isatty():
            return input()  # a Ctrl+C that reaches the session (the prompt is written above, under the lock)
        while b"\n" not in self._pending:
            chunk = os.read(sys.stdin.fileno(), 65536)
            if not chunk:
                if not self._pending:
                    raise EOFError
                self._pending += b"\n"
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", errors="replace").removesuffix("\r")
