"""A message as Discord's dark theme shows it, drawn from the fake's record of it: the author line, the content
(mentions as pills), each embed (colour bar, title, description, fields, image, footer) and the buttons; or a
Components V2 message (flag IS_COMPONENTS_V2): its containers (accent bar), text displays (headings ``###`` and
small print ``-#`` too), media galleries at the width they are given, sections with their accessory button at the
right, separators and action rows.

For documentation pictures, not a pixel-exact copy of Discord: markdown is reduced to bold (``**…**``) and those
two line marks, mentions are shown by name, and characters the font lacks (emoji) are left out. The model's
widths: a channel `width` pixels wide (760 by default), an embed 520 wide whose picture is fitted into 400 × 300,
and a container as wide as the message's column, its gallery as wide as the container's inside.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from .models import IS_COMPONENTS_V2, FakeMessage

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"),)
BACKGROUND = (49, 51, 56)
EMBED = (43, 45, 49)
TEXT = (219, 222, 225)
MUTED = (148, 155, 164)
WHITE = (242, 243, 245)
MENTION = (201, 205, 251)
MENTION_BG = (60, 66, 112)
BUTTON = {1: (88, 101, 242), 2: (78, 80, 88), 3: (36, 128, 70), 4: (218, 55, 60)}
WIDTH = 760
EMBED_WIDTH = 520
EMBED_IMAGE = (400, 300)  # the largest an embed's image is shown
PILL_START, PILL_END, PILL_SPACE = "\x01", "\x02", "\x03"  # a mention's name while text is laid out
MENTION_RE = re.compile(r"<(@|#)!?(\d+)>|<t:(\d+):([Rd])>")


def _font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for folder in FONT_DIRS:
        if (folder / name).exists():
            return ImageFont.truetype(str(folder / name), size)
    return ImageFont.load_default(size)


def _printable(text: str, font: ImageFont.FreeTypeFont) -> str:
    """Only the characters the font draws (emoji would be empty boxes)."""
    return "".join(c for c in text if ord(c) < 0x1F000 and c != "\ufe0f"
                   and (c in "\n \x01\x02\x03" or font.getmask(c).getbbox()))


class _Canvas:
    def __init__(self, names: Callable[[str, int], str], width: int = WIDTH) -> None:
        self.width = width
        self.image = Image.new("RGB", (width, 4000), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.names = names
        self.regular = _font(15)
        self.bold = _font(15, bold=True)
        self.small = _font(12)
        self.title = _font(16, bold=True)
        self.heading = _font(19, bold=True)

    def text_block(self, x: int, y: int, text: str, width: int, *, font: ImageFont.FreeTypeFont | None = None,
                   colour: tuple[int, int, int] = TEXT) -> int:
        """`text` wrapped to `width` from (x, y), bold where it is marked ``**…**``; returns the y below it."""
        base = font or self.regular
        line_height = int(base.size * 1.45)
        for paragraph in text.split("\n"):
            cx = x
            bold = False
            for part in re.split(r"(\*\*)", self._readable(paragraph)):
                if part == "**":
                    bold = not bold
                    continue
                face = self.bold if bold or base is self.bold else base
                for word in re.split(r"(\s+)", _printable(part, face)):
                    if not word:
                        continue
                    w = self.draw.textlength(word.replace(PILL_START, "").replace(PILL_END, ""), font=face)
                    if cx + w > x + width and word.strip() and cx > x:
                        cx, y = x, y + line_height
                    if not word.strip() and cx == x:
                        continue
                    for piece in re.split(f"({PILL_START}[^{PILL_END}]*{PILL_END})", word):
                        if piece.startswith(PILL_START):
                            # A mention: Discord's highlighted pill, inside text as in the content.
                            label = piece[1:-1].replace(PILL_SPACE, " ")
                            pw = self.draw.textlength(label, font=face)
                            self.draw.rounded_rectangle((cx - 1, y - 1, cx + pw + 1, y + base.size + 4), radius=3,
                                                        fill=MENTION_BG)
                            self.draw.text((cx, y), label, font=face, fill=MENTION)
                            cx += pw
                        elif piece:
                            self.draw.text((cx, y), piece, font=face, fill=WHITE if bold else colour)
                            cx += self.draw.textlength(piece, font=face)
            y += line_height
        return y

    def _readable(self, text: str) -> str:
        def name(match: re.Match[str]) -> str:
            if match[3]:
                # A relative time as a countdown; a short date as an English client shows it.
                when = datetime.fromtimestamp(int(match[3]), UTC)
                return "in 2 minutes" if match[4] == "R" else f"{when.month:02d}/{when.day:02d}/{when.year}"
            name = ("@" if match[1] == "@" else "#") + self.names(match[1], int(match[2]))
            return PILL_START + name.replace(" ", PILL_SPACE) + PILL_END

        return MENTION_RE.sub(name, text)

    def mention_line(self, x: int, y: int, text: str) -> int:
        """Content made of mentions, as Discord's highlighted pills."""
        for part in text.split():
            label = self._readable(part).strip(PILL_START + PILL_END).replace(PILL_SPACE, " ")
            w = int(self.draw.textlength(label, font=self.regular))
            self.draw.rounded_rectangle((x - 2, y, x + w + 2, y + 20), radius=3, fill=MENTION_BG)
            self.draw.text((x, y + 1), label, font=self.regular, fill=MENTION)
            x += w + 8
        return y + 26


def screenshot(message: FakeMessage, names: Callable[[str, int], str] | None = None, *, width: int = WIDTH) -> bytes:
    """PNG of `message` as a channel `width` pixels wide shows it. `names(kind, id)` names a mentioned user ("@")
    or channel ("#"); by default the id itself."""
    canvas = _Canvas(names or (lambda kind, ident: str(ident)), width)
    draw = canvas.draw
    x, y = 72, 16
    draw.ellipse((16, y, 56, y + 40), fill=(88, 101, 242))
    draw.text((x, y), message.author.name, font=canvas.bold, fill=WHITE)
    tag_x = x + int(draw.textlength(message.author.name, font=canvas.bold)) + 6
    draw.rounded_rectangle((tag_x, y + 2, tag_x + 34, y + 18), radius=3, fill=(88, 101, 242))
    draw.text((tag_x + 4, y + 3), "APP", font=canvas.small, fill=WHITE)
    y += 24
    if message.content:
        y = canvas.mention_line(x, y, message.content) if MENTION_RE.fullmatch(message.content.split()[0]) \
            else canvas.text_block(x, y, message.content, width - x - 20)
    pictures = {a.filename: a.data for a in message.attachments}
    if message.flags & IS_COMPONENTS_V2:
        # A layout shows nothing but its components; an attachment only where one of them points at it.
        for part in message.components:
            y = _component(canvas, part, pictures, x, y + 4, width - 16 - x)
        return _png(canvas.image.crop((0, 0, width, y + 12)))
    for embed in message.embeds:
        y = _embed(canvas, embed, pictures, x, y + 4) + 8
    y = _buttons(canvas, message.components, x, y)
    return _png(canvas.image.crop((0, 0, width, y + 12)))


def _embed(canvas: _Canvas, embed: dict, pictures: dict[str, bytes], x: int, y: int) -> int:
    draw = canvas.draw
    top = y
    inner = x + 16
    width = EMBED_WIDTH - 32
    layer = Image.new("RGB", (EMBED_WIDTH, 3000), EMBED)
    canvas.image.paste(layer, (x, y))
    y += 12
    if embed.get("title"):
        y = canvas.text_block(inner, y, str(embed["title"]), width, font=canvas.title, colour=WHITE) + 4
    if embed.get("description"):
        y = canvas.text_block(inner, y, str(embed["description"]), width) + 6
    fields = list(embed.get("fields") or [])
    while fields:
        # Inline fields share a row, up to three, as Discord lays them out; the others take the whole width.
        row = [fields.pop(0)]
        while row[0].get("inline") and len(row) < 3 and fields and fields[0].get("inline"):
            row.append(fields.pop(0))
        column = (width - 12 * (len(row) - 1)) // len(row)
        bottom = y
        for k, f in enumerate(row):
            fx = inner + k * (column + 12)
            name = str(f.get("name", "")).strip("\u200b")
            fy = canvas.text_block(fx, y, name, column, font=canvas.bold, colour=WHITE) if name else y
            bottom = max(bottom, canvas.text_block(fx, fy, str(f.get("value", "")), column) + 6)
        y = bottom
    image = (embed.get("image") or {}).get("url", "")
    data = pictures.get(image.removeprefix("attachment://"))
    if data:
        picture = Image.open(io.BytesIO(data)).convert("RGB")
        # Discord fits an embed's image in 400 x 300 on a desktop, however wide the embed is.
        scale = min(EMBED_IMAGE[0] / picture.width, EMBED_IMAGE[1] / picture.height, width / picture.width)
        picture = picture.resize((round(picture.width * scale), round(picture.height * scale)),
                                 Image.Resampling.LANCZOS)
        canvas.image.paste(picture, (inner, y + 4))
        y += picture.height + 12
    if (embed.get("footer") or {}).get("text"):
        y = canvas.text_block(inner, y, embed["footer"]["text"], width, font=canvas.small, colour=MUTED)
    y += 10
    # Everything below the embed was painted over by its background: give the background back.
    draw.rectangle((x, y, x + EMBED_WIDTH, top + 3000), fill=BACKGROUND)
    colour = embed.get("color")
    bar = ((colour >> 16) & 255, (colour >> 8) & 255, colour & 255) if isinstance(colour, int) else MUTED
    draw.rectangle((x, top, x + 4, y), fill=bar)
    return y


def _buttons(canvas: _Canvas, rows: list[dict], x: int, y: int, right: int | None = None) -> int:
    """Action rows from (x, y) up to `right` (the channel's edge by default); the y below them."""
    draw = canvas.draw
    right = canvas.width - 16 if right is None else right
    for row in rows:
        cx = x
        for button in row.get("components") or []:
            if button.get("type") == 3:  # a select fills its row: its placeholder in a box, and its arrow
                draw.rounded_rectangle((cx, y, right, y + 36), radius=4, fill=(30, 31, 34))
                placeholder = _printable(str(button.get("placeholder") or ""), canvas.regular)
                draw.text((cx + 12, y + 9), placeholder, font=canvas.regular, fill=MUTED)
                draw.text((right - 20, y + 8), "v", font=canvas.bold, fill=TEXT)
                y += 4
                continue
            if button.get("type") != 2:
                continue
            w = _button_width(canvas, button)
            if cx + w > right and cx > x:
                cx, y = x, y + 42
            _button(canvas, button, cx, y)
            cx += w + 8
        y += 42
    return y


def _button_width(canvas: _Canvas, button: dict) -> int:
    label = _printable(str(button.get("label") or ""), canvas.bold)
    return int(canvas.draw.textlength(label, font=canvas.bold)) + 28


def _button(canvas: _Canvas, button: dict, x: int, y: int) -> None:
    label = _printable(str(button.get("label") or ""), canvas.bold)
    fill = BUTTON.get(int(button.get("style") or 2), BUTTON[2])
    canvas.draw.rounded_rectangle((x, y, x + _button_width(canvas, button), y + 32), radius=4, fill=fill)
    canvas.draw.text((x + 14, y + 7), label, font=canvas.bold, fill=WHITE if not button.get("disabled") else MUTED)


def _text_display(canvas: _Canvas, content: str, x: int, y: int, width: int) -> int:
    """A text display's markdown, line by line: ``### `` a heading, ``-# `` small print, the rest as text."""
    for line in content.split("\n"):
        if line.startswith("### "):
            y = canvas.text_block(x, y, line[4:], width, font=canvas.heading, colour=WHITE) + 2
        elif line.startswith("-# "):
            y = canvas.text_block(x, y, line[3:], width, font=canvas.small, colour=MUTED)
        else:
            y = canvas.text_block(x, y, line, width)
    return y


def _component(canvas: _Canvas, part: dict, pictures: dict[str, bytes], x: int, y: int, width: int) -> int:
    """One Components V2 component from (x, y), `width` wide; the y below it."""
    draw = canvas.draw
    kind = part.get("type")
    if kind == 17:  # a container: its background, its accent bar, its components inside a padding
        top = y
        layer = Image.new("RGB", (width, 4000 - y), EMBED)
        canvas.image.paste(layer, (x, y))
        y += 14
        for child in part.get("components") or []:
            y = _component(canvas, child, pictures, x + 16, y, width - 30) + 6
        y += 8
        draw.rectangle((x, y, x + width, 4000), fill=BACKGROUND)
        colour = part.get("accent_color")
        if isinstance(colour, int):
            draw.rectangle((x, top, x + 3, y), fill=((colour >> 16) & 255, (colour >> 8) & 255, colour & 255))
        return y
    if kind == 10:
        return _text_display(canvas, str(part.get("content") or ""), x, y, width)
    if kind == 12:  # a media gallery of one picture: as wide as it is given
        for item in part.get("items") or []:
            data = pictures.get(str((item.get("media") or {}).get("url") or "").removeprefix("attachment://"))
            if not data:
                continue
            picture = Image.open(io.BytesIO(data)).convert("RGB")
            scale = width / picture.width
            picture = picture.resize((width, round(picture.height * scale)), Image.Resampling.LANCZOS)
            canvas.image.paste(picture, (x, y + 2))
            y += picture.height + 6
        return y
    if kind == 9:  # a section: its text at the left, its accessory at the right, level with the text's top
        accessory = part.get("accessory") or {}
        room = _button_width(canvas, accessory) if accessory.get("type") == 2 else 0
        bottom = y
        for child in part.get("components") or []:
            bottom = _component(canvas, child, pictures, x, bottom, width - room - 16)
        if room:
            _button(canvas, accessory, x + width - room, y)
        return max(bottom, y + 36)
    if kind == 14:
        draw.line((x, y + 6, x + width, y + 6), fill=(63, 65, 71), width=1)
        return y + 12
    if kind == 1:
        return _buttons(canvas, [part], x, y + 2, right=x + width) - 4
    return y


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
