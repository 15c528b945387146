"""Discord messages as terminal text: content, embeds, numbered buttons and lists, pictures saved to files.

Numbering: every message of the channel gets a number in the order Discord created it (#1, #2, …), and
each button or list on it the number of the message, a dot and its place in the message as printed, row by
row (12.3 is the third control of message #12, in the order they are on screen). When a message changes it
is printed again with its controls numbered anew; a number typed for a control that has since gone away or
changed answers so, and never presses the control that took its place. The same inputs give the same
messages, so a script replays the same numbers.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bot.sandbox.commands import Refusal, fold, starts_a_word
from fakediscord import FakeMessage
from fakediscord.models import walk_components
from fakediscord.snowflake import snowflake_time

SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
ACTION_ROW, TEXT_INPUT, TEXT_DISPLAY = 1, 4, 10
NUMBER = re.compile(r"^\d+\.\d+$")
# The table's board, as the bot names its picture: the one picture opened in a viewer.
BOARD_PICTURE = "board.png"
TICKED = "✓ "  # before an option of a list that is ticked (chosen) now
# The pictures a session keeps on disk: a long game draws a board a turn (a 354-turn game wrote 752 pictures,
# 54 MB); the oldest go once there are more, and their lines say so when printed again.
KEEP_PICTURES = 40
CHANNEL = re.compile(r"<#(\d+)>")
TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")


@dataclass
class Control:
    """A button or a list the user can reach by its number or its label."""

    number: str
    message: FakeMessage
    component: dict[str, Any]

    @property
    def is_select(self) -> bool:
        return self.component.get("type") in SELECT_TYPES

    @property
    def several(self) -> bool:
        """A list of which several options may be ticked at once (the house rules, a trade's titles)."""
        return self.is_select and int(self.component.get("max_values") or 1) > 1

    @property
    def label(self) -> str:
        c = self.component
        return str(c.get("label") or c.get("placeholder") or (c.get("emoji") or {}).get("name") or "…")

    def live(self) -> bool:
        """Whether the message still carries this control, enabled."""
        now = self.message.find_component(custom_id=self.component["custom_id"])
        return now is not None and not now.get("disabled") and not self.message.deleted


MENTION = re.compile(r"<@!?(\d+)>")


def rows(components: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The controls a person can use, row by row as Discord lays them out: an action row's buttons (or its
    select) on one line, a section's button on a line of its own."""
    found: list[list[dict[str, Any]]] = []
    for component in components:
        if component.get("type") == ACTION_ROW:
            row = [c for c in walk_components(component.get("components") or []) if _usable(c)]
            if row:
                found.append(row)
            continue
        if _usable(component):
            found.append([component])
        found += rows(component.get("components") or [])
        found += rows([child for key in ("accessory", "component") if isinstance(child := component.get(key), dict)])
    return found


def _usable(component: dict[str, Any]) -> bool:
    return bool(component.get("custom_id")) and component.get("type") != TEXT_INPUT


def owner_of(message: FakeMessage) -> int | None:
    """Who sees an ephemeral message: the person whose interaction it answers."""
    user = (message.interaction_metadata or {}).get("user") or {}
    return int(user["id"]) if message.ephemeral and "id" in user else None


@dataclass
class Printer:
    out: Path
    open_pictures: bool
    words: Callable[..., str]  # the sandbox's own words: words("edited"), words("only_for", name="Beto")
    names: dict[int, str] = field(default_factory=dict)  # user id -> name, to show mentions as @name
    channels: dict[int, str] = field(default_factory=dict)  # channel id -> name, from the guilds printed
    places: Mapping[int, Any] = field(default_factory=dict)  # the fake's channels and threads by id (their .name)
    controls: dict[int, list[Control]] = field(default_factory=dict)  # message id -> its controls as shown
    pictures: list[Path] = field(default_factory=list)
    gone: dict[str, str] = field(default_factory=dict)  # number -> label of a control its message dropped
    _numbers: dict[int, int] = field(default_factory=dict)  # message id -> its number, in creation order
    _seen: dict[int, int] = field(default_factory=dict)  # message id -> payloads already printed
    _saved: dict[str, Path] = field(default_factory=dict)  # picture digest -> the file it is in
    _written: int = 0  # pictures written so far, which numbers their files
    _opened: set[int] = field(default_factory=set)  # the messages whose board was opened in a viewer

    def track(self, messages: list[FakeMessage]) -> None:
        """Number the channel's messages (all of them, oldest first) that have no number yet."""
        for message in sorted(messages, key=lambda m: m.id):
            if message.id not in self._numbers:
                self._numbers[message.id] = len(self._numbers) + 1

    def changed(self, messages: list[FakeMessage]) -> list[FakeMessage]:
        """The messages that are new or were edited since they were last printed."""
        return [m for m in messages if not m.loading and self._seen.get(m.id) != len(m.history)]

    def changed_at(self, message: FakeMessage) -> float:
        """When what is printed of `message` happened: its post if it was never printed (its edits since come
        with it), else its last edit. Changes printed together go in this order: a warning posted after a table
        prints after it, though the table was edited again later."""
        if message.id in self._seen and message.edited_timestamp:
            return datetime.fromisoformat(message.edited_timestamp).timestamp()
        return snowflake_time(message.id).timestamp()

    def show(self, message: FakeMessage, *, viewer: int | None = None) -> list[str]:
        """Lines for `message`, whose number `track` gave; its controls replace what it showed before. An
        ephemeral message says whom it is for: "only you" when that is `viewer`."""
        self._seen[message.id] = len(message.history)
        self.channels.update((c.id, c.name) for c in message.channel.guild.channels)
        lines: list[str] = []
        owner = owner_of(message)
        tag = ""
        if owner is not None:
            tag = " " + (self.words("only_you") if owner == viewer
                         else self.words("only_for", name=self.names.get(owner, str(owner))))
        edited = f" {self.words('edited')}" if message.edited_timestamp else ""
        lines.append(f"── #{self._numbers[message.id]} {message.author.name}{tag}{edited}")
        if message.content:
            lines += [f"   {self._mentions(line)}" for line in message.content.splitlines()]
        for embed in message.embeds:
            lines += self._embed(embed)
        lines += self._texts(message)
        for attachment in message.attachments:
            path = self._save(attachment.filename, attachment.data)
            lines.append(f"   🖼  {path}" if path.exists() else f"   🖼  {path} {self.words('picture_gone')}")
            if attachment.filename == BOARD_PICTURE and owner is None and message.id not in self._opened:
                # A new table each turn: its board opens once, not at every edit nor for any other picture.
                self._opened.add(message.id)
                self._open(path)
        lines += self._components(message)
        return lines

    def _mentions(self, text: str) -> str:
        """Discord's markup as its client shows it: people as @name, channels and threads as #name, times in
        the reader's clock (`<t:…:R>` as "in 40 s")."""
        text = MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), text)
        text = CHANNEL.sub(lambda m: "#" + self._place(int(m.group(1))), text)
        return TIMESTAMP.sub(lambda m: self._time(int(m.group(1)), m.group(2) or "f"), text)

    def _place(self, channel_id: int) -> str:
        found = self.places.get(channel_id)
        return str(found.name) if found is not None else self.channels.get(channel_id, str(channel_id))

    def _time(self, when: int, style: str) -> str:
        if style == "R":
            seconds = round(when - time.time())
            span = abs(seconds)
            amount = (f"{span} s" if span < 90 else f"{round(span / 60)} min" if span < 5400
                      else f"{round(span / 3600)} h")
            return self.words("time_in" if seconds >= 0 else "time_ago", span=amount)
        shown = {"t": "%H:%M", "T": "%H:%M:%S", "d": "%Y-%m-%d", "D": "%Y-%m-%d"}.get(style, "%Y-%m-%d %H:%M")
        return time.strftime(shown, time.localtime(when))

    def _embed(self, embed: dict[str, Any]) -> list[str]:
        lines = []
        if embed.get("title"):
            lines.append(f"   ▌ {self._mentions(str(embed['title']))}")
        for line in str(embed.get("description") or "").splitlines():
            lines.append(f"   ▌ {self._mentions(line)}")
        for f in embed.get("fields") or []:
            name = str(f.get("name") or "").strip("\u200b")
            if name:
                lines.append(f"   ▌ {name}")
            lines += [f"   ▌   {self._mentions(line)}" for line in str(f.get("value") or "").splitlines()]
        image = str((embed.get("image") or {}).get("url") or "")
        if image.startswith("attachment://"):
            lines.append(f"   ▌ [{image.removeprefix('attachment://')}]")
        if (embed.get("footer") or {}).get("text"):
            lines.append(f"   ▌ {embed['footer']['text']}")
        return lines

    def _texts(self, message: FakeMessage) -> list[str]:
        """A Components V2 message's text displays, in order, as an embed's lines (its controls come after)."""
        lines = []
        for component in walk_components(message.components):
            if component.get("type") == TEXT_DISPLAY:
                for line in str(component.get("content") or "").splitlines():
                    lines.append(f"   ▌ {self._mentions(line.removeprefix('### ').removeprefix('-# '))}")
        return lines

    def _components(self, message: FakeMessage) -> list[str]:
        """One line per row of controls, numbered in the order they are on screen."""
        number = self._numbers[message.id]
        for old in self.controls.get(message.id, []):
            self.gone[old.number] = old.label
        controls: list[Control] = []
        lines = []
        for row in rows(message.components):
            shown, hints = [], []
            for component in row:
                control = Control(f"{number}.{len(controls) + 1}", message, component)
                controls.append(control)
                if control.is_select:
                    # The options ticked now (`default`), as Discord's client shows them in the list: in a list of
                    # several, choosing replaces the ticked set, so what stays ticked has to be seen.
                    options = ", ".join(TICKED * bool(o.get("default")) + o.get("label", "")
                                        for o in component.get("options") or [])
                    shown.append(f"[{control.number}] ▾ {control.label}" + (f": {options}" if options else ""))
                    if control.several:
                        hints.append("   " + self.words("several", number=control.number))
                else:
                    off = " (off)" if component.get("disabled") else ""
                    shown.append(f"[{control.number}] {control.label}{off}")
            lines.append("   " + "  ".join(shown))
            lines += hints
        self.controls[message.id] = controls
        for control in controls:
            self.gone.pop(control.number, None)
        return lines

    def _save(self, filename: str, data: bytes) -> Path:
        """The picture's file: a new one only for a picture not saved before (`look` writes nothing new)."""
        digest = hashlib.sha256(data).hexdigest()
        if digest in self._saved:
            return self._saved[digest]
        self._written += 1
        path = self.out / f"{self._written:03d}-{filename}"
        path.write_bytes(data)
        self._saved[digest] = path
        self.pictures.append(path)
        while len(self.pictures) > KEEP_PICTURES:
            self.pictures.pop(0).unlink(missing_ok=True)
        return path

    def _open(self, path: Path) -> None:
        if self.open_pictures:
            viewer = shutil.which("xdg-open") or shutil.which("open")
            if viewer:
                subprocess.Popen([viewer, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def find(self, target: str, *, select: bool) -> Control:
        """The control numbered `target` (12.3), or the newest one on screen whose label is `target`, else
        starts with it, else has a word that starts it (accents and capitals aside, as Discord's autocomplete
        matches: "comprar" is "Comprar $8,000" before "No comprar → subasta"). Refuses, in the
        player's words, what is not there any more."""
        shown = [c for controls in self.controls.values() for c in controls]
        if NUMBER.match(target):
            control = next((c for c in shown if c.number == target), None)
            if control is None and target in self.gone:
                raise Refusal("gone", label=self.gone[target])
            if control is None:
                raise Refusal("no_such_number", number=target)
            return self._usable(control)
        if target.replace(".", "").isdigit():
            raise Refusal("number_format", number=target)
        t = fold(target)
        pool = [c for c in shown if c.is_select == select]
        for match in (lambda c: fold(c.label) == t, lambda c: fold(c.label).startswith(t),
                      lambda c: starts_a_word(target, c.label)):
            hits = [c for c in pool if match(c)]
            live = [c for c in hits if c.live()]
            if live:
                return live[-1]
            if hits:
                return self._usable(hits[-1])
        raise Refusal("no_such_list" if select else "no_such_button", label=target)

    @staticmethod
    def _usable(control: Control) -> Control:
        now = control.message.find_component(custom_id=control.component["custom_id"])
        if now is None or control.message.deleted:
            raise Refusal("gone", label=control.label)
        if now.get("disabled"):
            raise Refusal("disabled", label=control.label)
        return control
