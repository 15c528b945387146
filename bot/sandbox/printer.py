"""Discord messages as terminal text: content, embeds, numbered buttons and lists, pictures saved to files.

Numbering: every message of the channel gets a number in the order Discord created it (#1, #2, …), and
each button or list on it the number of the message, a dot and its place in the message (12.3 is the third
control of message #12). A number therefore never changes while its message exists, is never given to
another control, and means the same control when a script replays the same inputs.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.sandbox.commands import Refusal, fold
from fakediscord import FakeMessage
from fakediscord.models import walk_components

SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
NUMBER = re.compile(r"^\d+\.\d+$")


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
    def label(self) -> str:
        c = self.component
        return str(c.get("label") or c.get("placeholder") or (c.get("emoji") or {}).get("name") or "…")

    def live(self) -> bool:
        """Whether the message still carries this control, enabled."""
        now = self.message.find_component(custom_id=self.component["custom_id"])
        return now is not None and not now.get("disabled") and not self.message.deleted


MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class Printer:
    out: Path
    open_pictures: bool
    texts: dict[str, str]  # the words of the sandbox's own lines: only_you, edited
    names: dict[int, str] = field(default_factory=dict)  # user id -> name, to show mentions as @name
    controls: dict[int, list[Control]] = field(default_factory=dict)  # message id -> its controls as shown
    pictures: list[Path] = field(default_factory=list)
    gone: dict[str, str] = field(default_factory=dict)  # number -> label of a control its message dropped
    _numbers: dict[int, int] = field(default_factory=dict)  # message id -> its number, in creation order
    _seen: dict[int, int] = field(default_factory=dict)  # message id -> payloads already printed
    _saved: dict[str, Path] = field(default_factory=dict)  # picture digest -> the file it is in

    def track(self, messages: list[FakeMessage]) -> None:
        """Number the channel's messages (all of them, oldest first) that have no number yet."""
        for message in sorted(messages, key=lambda m: m.id):
            if message.id not in self._numbers:
                self._numbers[message.id] = len(self._numbers) + 1

    def changed(self, messages: list[FakeMessage]) -> list[FakeMessage]:
        """The messages that are new or were edited since they were last printed."""
        return [m for m in messages if not m.loading and self._seen.get(m.id) != len(m.history)]

    def show(self, message: FakeMessage, *, private: bool = False) -> list[str]:
        """Lines for `message`, whose number `track` gave; its controls replace what it showed before."""
        self._seen[message.id] = len(message.history)
        lines: list[str] = []
        tag = f" {self.texts['only_you']}" if private or message.ephemeral else ""
        edited = f" {self.texts['edited']}" if message.edited_timestamp else ""
        lines.append(f"── #{self._numbers[message.id]} {message.author.name}{tag}{edited}")
        if message.content:
            lines += [f"   {self._mentions(line)}" for line in message.content.splitlines()]
        for embed in message.embeds:
            lines += self._embed(embed)
        for attachment in message.attachments:
            lines.append(f"   🖼  {self._save(attachment.filename, attachment.data)}")
        lines += self._components(message)
        return lines

    def _mentions(self, text: str) -> str:
        return MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), text)

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

    def _components(self, message: FakeMessage) -> list[str]:
        found = [c for c in walk_components(message.components) if c.get("custom_id") and c.get("type") != 4]
        number = self._numbers[message.id]
        for old in self.controls.get(message.id, []):
            self.gone[old.number] = old.label
        self.controls[message.id] = [Control(f"{number}.{i}", message, c) for i, c in enumerate(found, 1)]
        for control in self.controls[message.id]:
            self.gone.pop(control.number, None)
        buttons, lines = [], []
        for control in self.controls[message.id]:
            c = control.component
            if control.is_select:
                options = ", ".join(o.get("label", "") for o in c.get("options") or [])
                line = f"   [{control.number}] ▾ {control.label}"
                lines.append(f"{line}: {options}" if options else line)
            else:
                off = " (off)" if c.get("disabled") else ""
                buttons.append(f"[{control.number}] {control.label}{off}")
        if buttons:
            lines.insert(0, "   " + "  ".join(buttons))
        return lines

    def _save(self, filename: str, data: bytes) -> Path:
        """The picture's file: a new one only for a picture not saved before (`look` writes nothing new)."""
        digest = hashlib.sha256(data).hexdigest()
        if digest in self._saved:
            return self._saved[digest]
        path = self.out / f"{len(self._saved) + 1:03d}-{filename}"
        path.write_bytes(data)
        self._saved[digest] = path
        self.pictures.append(path)
        if self.open_pictures:
            viewer = shutil.which("xdg-open") or shutil.which("open")
            if viewer:
                subprocess.Popen([viewer, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return path

    def find(self, target: str, *, select: bool) -> Control:
        """The control numbered `target` (12.3), or the newest one on screen whose label is or starts with
        `target` (accents and capitals aside). Refuses, in the player's words, what is not there any more."""
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
        for match in (lambda c: fold(c.label) == t, lambda c: fold(c.label).startswith(t)):
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
