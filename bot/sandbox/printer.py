"""Discord messages as terminal text: content, embeds, numbered buttons and selects, pictures saved to files."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import FakeMessage
from fakediscord.models import walk_components

BUTTON, STRING_SELECT, USER_SELECT = 2, 3, 5
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})


@dataclass
class Control:
    """A button or a select the user can reach by its number."""

    number: int
    message: FakeMessage
    component: dict[str, Any]

    @property
    def is_select(self) -> bool:
        return self.component.get("type") in SELECT_TYPES

    @property
    def label(self) -> str:
        c = self.component
        return str(c.get("label") or c.get("placeholder") or (c.get("emoji") or {}).get("name") or c["custom_id"])


MENTION = re.compile(r"<@!?(\d+)>")


@dataclass
class Printer:
    out: Path
    open_pictures: bool
    names: dict[int, str] = field(default_factory=dict)  # user id -> name, to show mentions as @name
    controls: list[Control] = field(default_factory=list)
    pictures: list[Path] = field(default_factory=list)
    _seen: dict[int, int] = field(default_factory=dict)  # message id -> payloads already printed
    _counter: int = 0

    def changed(self, messages: list[FakeMessage]) -> list[FakeMessage]:
        """The messages that are new or were edited since they were last printed."""
        return [m for m in messages if not m.loading and self._seen.get(m.id) != len(m.history)]

    def show(self, message: FakeMessage, *, private: bool = False) -> list[str]:
        """Lines for `message`; its buttons and selects get numbers (which replace the older ones)."""
        self._seen[message.id] = len(message.history)
        lines: list[str] = []
        tag = " (solo tú / only you)" if private or message.ephemeral else ""
        edited = " (editado / edited)" if message.edited_timestamp else ""
        lines.append(f"── {message.author.name}{tag}{edited}")
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
            lines.append(f"   ▌ {embed['title']}")
        for line in str(embed.get("description") or "").splitlines():
            lines.append(f"   ▌ {self._mentions(line)}")
        for f in embed.get("fields") or []:
            lines.append(f"   ▌ {f.get('name')}: {self._mentions(str(f.get('value')))}")
        if (embed.get("footer") or {}).get("text"):
            lines.append(f"   ▌ {embed['footer']['text']}")
        return lines

    def _components(self, message: FakeMessage) -> list[str]:
        found = [c for c in walk_components(message.components) if c.get("custom_id") and c.get("type") != 4]
        if not found:
            return []
        self.controls = [c for c in self.controls if c.message.id != message.id]
        buttons, lines = [], []
        for c in found:
            control = Control(len(self.controls) + 1, message, c)
            self.controls.append(control)
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
        self._counter += 1
        path = self.out / f"{self._counter:03d}-{filename}"
        path.write_bytes(data)
        self.pictures.append(path)
        if self.open_pictures:
            viewer = shutil.which("xdg-open") or shutil.which("open")
            if viewer:
                subprocess.Popen([viewer, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return path

    def find(self, target: str, *, select: bool) -> Control:
        """The control numbered `target`, or the newest one whose label starts with it (case-insensitive)."""
        pool = [c for c in self.controls if c.is_select == select]
        if target.isdigit():
            for c in self.controls:
                if c.number == int(target):
                    return c
            raise LookupError(target)
        t = target.casefold()
        for match in (lambda c: c.label.casefold() == t, lambda c: c.label.casefold().startswith(t)):
            hits = [c for c in pool if match(c)]
            if hits:
                return hits[-1]
        raise LookupError(target)
