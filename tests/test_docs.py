"""The README and docs/ say what the code does: the invite link the bot prints is the one the guides print."""

from __future__ import annotations

import re
from pathlib import Path

import discord
import pytest

from bot.invite import PERMISSIONS, invite_link
from bot.run import main as run_main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
INVITE = re.compile(r"https://discord\.com/(?:api/)?oauth2/authorize\?[^\s`)>\]]*")


def invite_links(text: str) -> list[str]:
    return INVITE.findall(text)


def permissions_of(link: str) -> int | None:
    found = re.search(r"[?&]permissions=(\d+)", link)
    return int(found.group(1)) if found else None


def test_the_invite_permissions_are_discords_bits_for_what_the_bot_does() -> None:
    needed = discord.Permissions(view_channel=True, send_messages=True, embed_links=True, attach_files=True,
                                 read_message_history=True, create_public_threads=True,
                                 send_messages_in_threads=True)
    assert PERMISSIONS == needed.value == 309237763072


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_invite_link_in_the_guides_carries_the_bots_permissions(page: Path) -> None:
    for link in invite_links(page.read_text(encoding="utf-8")):
        assert permissions_of(link) == PERMISSIONS, link
        assert "applications.commands" in link and "scope=bot" in link, link


def test_the_admin_guides_give_the_invite_link() -> None:
    assert invite_link() in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_guide_of_turista_run_without_a_token_gives_the_same_link(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert run_main([]) == 2
    links = invite_links(capsys.readouterr().err)
    assert links and all(permissions_of(link) == PERMISSIONS for link in links)
    assert invite_link() in links
