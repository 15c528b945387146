"""What every public message shows, as Discord embeds: pure functions of the game (no Discord calls).

Each builder returns the embed and, where someone must be pinged, the content: only the mention of the
person the game waits for, because text inside an embed never notifies anyone. `bot.face.buttons` keeps the
components; the publisher (`bot.face.publisher`) and the lobby's handlers send what is built here.

Discord refuses an embed over its limits (title 256, description 4,096, a field's name 256 and value 1,024,
25 fields, 6,000 characters in all), so everything long is cut here, newest lines kept, with "…" marking what
was left out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

import discord

from bot.face import texts
from bot.face.i18n import t
from bot.store import GameRow, SeatRow
from bot.table.settings import MAX_SEATS, TableSettings
from engine import Standing, State, edition_of
from render.style import SEAT_COLOURS
from words import TOLD_FROM_STATE, account, describe, in_order, square_name, text

TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FIELDS_MAX = 25
TOTAL_MAX = 6000
BLANK = "\u200b"  # a field name that shows nothing (Discord refuses an empty one)

BOARD = "board.png"
DEED = "deed.png"
SUMMARY = "summary.png"

# Colours of messages that belong to no seat: the lobby, a closed table, an outcome.
NEUTRAL = discord.Colour(0x4E5D94)
GREEN = discord.Colour(0x2D7D46)
RED = discord.Colour(0xC0392B)
GREY = discord.Colour(0x747F8D)
MENTION = re.compile(r"<@!?(\d+)>")
MARKDOWN = re.compile(r"\*\*|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")


# -- pieces -------------------------------------------------------------------------------------------
def seat_colour(seat: int) -> discord.Colour:
    """The colour of `seat`'s token on the board (the renderer's palette), so the embed's bar matches it."""
    r, g, b = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    return discord.Colour.from_rgb(r, g, b)


def plain(line: str) -> str:
    """A catalogue line without its bold and italic marks: a title shows them literally."""
    return MARKDOWN.sub("", line)


def cut(value: str, limit: int) -> str:
    """`value` in at most `limit` characters, "…" marking a cut."""
    return value if len(value) <= limit else value[: limit - 1] + "…"


def newest(lines: list[str], limit: int) -> list[str]:
    """As many of the last `lines` as fit in `limit` characters (joined by newlines), "…" first when some
    were left out: the newest of a long account is what matters."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        line = cut(line, FIELD_VALUE_MAX - 2)
        if used + len(line) + 1 > limit - 2:
            kept.append("…")
            break
        kept.append(line)
        used += len(line) + 1
    return list(reversed(kept))


def chunks(lines: list[str], limit: int = FIELD_VALUE_MAX) -> list[str]:
    """`lines` packed into values of at most `limit` characters, in order."""
    out: list[str] = []
    current = ""
    for line in lines:
        line = cut(line, limit)
        if current and len(current) + 1 + len(line) > limit:
            out.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        out.append(current)
    return out


def size(embed: discord.Embed) -> int:
    """The characters Discord counts towards an embed's 6,000."""
    return len(embed)


def fits(embed: discord.Embed) -> bool:
    """Whether Discord accepts `embed` as it is."""
    fields = embed.fields
    return (len(embed.title or "") <= TITLE_MAX and len(embed.description or "") <= DESCRIPTION_MAX
            and len(fields) <= FIELDS_MAX and size(embed) <= TOTAL_MAX
            and all(0 < len(f.name or "") <= FIELD_NAME_MAX and 0 < len(f.value or "") <= FIELD_VALUE_MAX
                    for f in fields))


def _embed(title: str, colour: discord.Colour, description: str = "") -> discord.Embed:
    return discord.Embed(title=cut(plain(title), TITLE_MAX), colour=colour,
                         description=cut(description, DESCRIPTION_MAX) if description else None)


def _field(embed: discord.Embed, name: str, value: str, *, inline: bool = False) -> None:
    embed.add_field(name=cut(plain(name), FIELD_NAME_MAX) or BLANK, value=cut(value, FIELD_VALUE_MAX) or BLANK,
                    inline=inline)


def _footer(embed: discord.Embed, state: State | str, game: int, lang: str) -> None:
    edition = state if isinstance(state, str) else state.edition
    embed.set_footer(text=footer_text(lang, edition, game))


@functools.lru_cache(maxsize=4096)
def footer_text(lang: str, edition: str, game: int) -> str:
    """The same for every message of a game: worked out once (a table is edited after every move)."""
    return t(lang, "embed.footer", edition=text(lang, f"edition.{edition}.name"), id=game)


def _account_fields(embed: discord.Embed, lines: list[str], lang: str, budget: int) -> None:
    """The account as fields of at most 1,024 characters each, the newest kept within `budget`."""
    name = t(lang, "embed.account")
    for k, value in enumerate(chunks(newest(lines, budget))):
        _field(embed, name if k == 0 else BLANK, value)


# -- the table ----------------------------------------------------------------------------------------
class Narration:
    """The sentences of a game's events, each worked out once: a table is edited several times a turn and
    retired at its end, and telling the whole turn again each time was most of an edit's text work. An
    event kept here is kept alive, so its id cannot name another; `forget` at each new turn."""

    def __init__(self) -> None:
        self._told: dict[tuple[int, str], tuple[dict, str]] = {}

    def lines(self, events: list[dict], state: State, lang: str) -> list[str]:
        """What `account(events, state, lang)` says."""
        out = []
        for event in events:
            kept = self._told.get((id(event), lang))
            if kept is not None and kept[0] is event:
                line = kept[1]
            else:
                line = describe(event, state, lang)
                if event["code"] not in TOLD_FROM_STATE:
                    self._told[id(event), lang] = (event, line)
            if line:
                out.append(line)
        return out

    def forget(self) -> None:
        self._told.clear()


def pinged(state: State, seats: list[SeatRow]) -> int | None:
    """The person the table addresses by name now (whose turn, debt or decision on mortgages), if any: the
    only one its message may ping. A computer's decision and an auction (everyone bids) ping nobody."""
    if state.phase == "over":
        return None
    if state.debts:
        seat = state.debts[0].debtor
    elif state.lift is not None:
        seat = state.lift.seat
    elif state.auction is not None:
        return None
    else:
        seat = state.current
    if state.seats[seat].computer:
        return None
    return next((s.user_id for s in seats if s.seat == seat and s.user_id), None)


def acting_colour(state: State) -> discord.Colour:
    if state.phase == "over":
        return seat_colour(state.winner) if state.winner >= 0 else GREY
    acting = state.seat_to_act()
    if state.auction is not None and state.auction.bidder >= 0:
        return seat_colour(state.auction.bidder)
    return seat_colour(acting[0] if acting else state.current)


def told(state: State, events: list[dict], lang: str, narration: Narration | None = None) -> list[str]:
    """The sentences of the turn's events, in order (the turn's start is the header's)."""
    shown = [e for e in in_order(events) if e["code"] != "turn_started"]
    return narration.lines(shown, state, lang) if narration is not None else account(shown, state, lang)


def table(state: State, seats: list[SeatRow], events: list[dict], lang: str, *, live: bool, game: int = 0,
          picture: bool = True, narration: Narration | None = None,
          waiting: str = "") -> tuple[str | None, discord.Embed]:
    """The table message: (content, embed). The title names the turn and its player; the fields tell what
    happened in this turn, in order, and whose decision it is now; the board is the embed's picture
    (`attachment://board.png`, the attachment the message carries or keeps). The content is the mention of
    the person to act, alone, so that it pings; None when nobody is."""
    header = texts.turn_header(state, events, lang)
    lines = [f"• {line}" for line in told(state, events, lang, narration)]
    embed = _embed(header, acting_colour(state) if live or state.phase == "over" else GREY)
    prompt = texts.prompt(state, seats, lang) if live else ""
    if prompt and waiting:
        prompt = f"{prompt}\n{waiting}"  # by correspondence: who the game waits for, and since when
    # The account may take what the title, the prompt and the footer leave of the 6,000.
    budget = TOTAL_MAX - len(embed.title or "") - len(prompt) - 300
    if lines:
        _account_fields(embed, lines, lang, min(budget, FIELD_VALUE_MAX * (FIELDS_MAX - 2)))
    if prompt:
        _field(embed, t(lang, "embed.next"), prompt)
    if picture:
        embed.set_image(url=f"attachment://{BOARD}")
    if game:
        _footer(embed, state, game, lang)
    user = pinged(state, seats) if live else None
    return (f"<@{user}>" if user else None), embed


# -- the lobby ----------------------------------------------------------------------------------------
def lobby(row: GameRow, lang: str, *, closed: str = "") -> discord.Embed:
    """The lobby: edition, seats, host, house rules and clock; once closed or started, its state."""
    return lobby_of(row.id, row.host_id, row.seats, TableSettings(row.settings), row.edition, lang, closed=closed)


@dataclass(frozen=True)
class LobbyParts:
    """What a lobby message says, embed or layout: its title, colour, host line, the line under it (the hint, or
    once closed the game's state), the players' heading and lines, the house rules' heading and lines."""

    title: str
    colour: discord.Colour
    host: str
    line: str
    players: str
    seats: list[str]
    rules: str
    summary: list[str]
    edition: str


def lobby_parts(host_id: int, seats: list[SeatRow], settings: TableSettings, opened_with: str, lang: str,
                *, closed: str = "") -> LobbyParts:
    edition = settings.edition(opened_with)
    # Once closed, the message stays as the game's lobby (its progress, its result): no longer a new table.
    title = t(lang, "embed.lobby_closed" if closed else "embed.lobby", edition=text(lang, f"edition.{edition}.name"))
    players = [f"{i + 1}. {texts.lobby_seat(seat, lang)}" for i, seat in enumerate(seats)]
    return LobbyParts(title, GREY if closed else NEUTRAL, t(lang, "lobby.host", host=f"<@{host_id}>"),
                      closed or t(lang, "lobby.hint"),
                      t(lang, "lobby.players", count=len(seats), max=MAX_SEATS).rstrip(":"),
                      players or [t(lang, "lobby.empty")], t(lang, "embed.rules"),
                      texts.settings_summary(settings, opened_with, lang), edition)


def lobby_of(game: int, host_id: int, seats: list[SeatRow], settings: TableSettings, opened_with: str, lang: str,
             *, closed: str = "") -> discord.Embed:
    """`lobby`, from its parts (a game in play shows its lobby message from what its table holds)."""
    parts = lobby_parts(host_id, seats, settings, opened_with, lang, closed=closed)
    embed = _embed(parts.title, parts.colour, "\n".join([parts.host, "", parts.line]))
    _field(embed, parts.players, "\n".join(parts.seats))
    _field(embed, parts.rules, "\n".join(parts.summary))
    _footer(embed, parts.edition, game, lang)
    return embed


# -- auctions -----------------------------------------------------------------------------------------
Field = tuple[str, str, bool]  # an embed field: name, value, inline


def auction_parts(state: State, lang: str, quiet: float,
                  closes: str = "") -> tuple[str, discord.Colour, str, list[Field]]:
    """An open auction's words, as the embed and the layout (`bot.face.layout.auction`) show them: the title,
    the colour (the highest bidder's), the quiet period (by correspondence `closes`, its clock) and the fields
    (highest bid, list price, who bids)."""
    au = state.auction
    assert au is not None
    name = square_name(state.edition, au.square, lang)
    title = t(lang, f"auction.title.{au.item}", variant=state.edition, square=name)
    colour = seat_colour(au.bidder) if au.bidder >= 0 else NEUTRAL
    if au.bidder >= 0:
        highest = f"**{texts.cash(state, au.bid)}** · {texts.seat_label(state, au.bidder)}"
    else:
        highest = t(lang, "auction.no_bids", minimum=texts.cash(state, max(au.minimum, 1)))
    fields: list[Field] = [(t(lang, "embed.highest"), highest, True)]
    if au.item == "title":
        fields.append((t(lang, "embed.list_price"),
                       texts.cash(state, edition_of(state).squares[au.square].price), True))
    fields.append((t(lang, "embed.bidding"), "\n".join(texts.seat_label(state, s) for s in au.active) or "—", False))
    return title, colour, closes or t(lang, "auction.quiet", seconds=int(quiet)), fields


def auction(state: State, lang: str, quiet: float, *, game: int = 0, closes: str = "") -> discord.Embed:
    """An open auction: the deed as the picture, the highest bid, who is still in, the quiet period (by
    correspondence `closes`, its clock)."""
    title, colour, description, fields = auction_parts(state, lang, quiet, closes)
    embed = _embed(title, colour, description)
    for name, value, inline in fields:
        _field(embed, name, value, inline=inline)
    embed.set_image(url=f"attachment://{DEED}")
    if game:
        _footer(embed, state, game, lang)
    return embed


def auction_result_parts(state: State, result: list[dict], lang: str) -> tuple[str, discord.Colour, str]:
    """A closed auction's words: the title, the colour (the winner's) and who won it for how much."""
    won = next((e for e in result if e["code"] == "auction_won"), None)
    colour = seat_colour(won["seat"]) if won else GREY
    lines = account(result, state, lang)
    return t(lang, "auction.closed"), colour, "\n".join(lines) or t(lang, "auction.closed")


def auction_result(state: State, result: list[dict], lang: str, *, game: int = 0) -> discord.Embed:
    """A closed auction: who won it and for how much, or that nobody bid; the deed stays its picture."""
    title, colour, description = auction_result_parts(state, result, lang)
    embed = _embed(title, colour, description)
    embed.set_image(url=f"attachment://{DEED}")
    if game:
        _footer(embed, state, game, lang)
    return embed


# -- trades -------------------------------------------------------------------------------------------
def answerer(state: State, seats: list[SeatRow]) -> int | None:
    """The person an offer waits for, the only one it may ping: none when a computer plays the seat it is made
    to (a computer's, or one a person left to a computer), as `pinged` does for the turn."""
    tr = state.trade
    if tr is None or state.seats[tr.target].computer:
        return None
    return next((s.user_id for s in seats if s.seat == tr.target and s.user_id), None)


def trade_parts(state: State, seats: list[SeatRow], lang: str) -> tuple[str, discord.Colour, str, list[Field]]:
    """An offer's words, as the embed and the layout (`bot.face.layout.offer`) show them: the title, the colour
    (the proposer's), who must answer (their mention) and both sides."""
    tr = state.trade
    assert tr is not None
    proposer, target = texts.seat_label(state, tr.proposer), texts.seat_label(state, tr.target)
    fields: list[Field] = [
        (t(lang, "embed.gives", seat=proposer),
         texts.offer_text(state, tr.give.titles, tr.give.cash, len(tr.give.cards), lang), True),
        (t(lang, "embed.gives", seat=target),
         texts.offer_text(state, tr.take.titles, tr.take.cash, len(tr.take.cards), lang), True),
    ]
    return (t(lang, "trade.title", proposer=proposer, target=target), seat_colour(tr.proposer),
            t(lang, "trade.answer", who=f"<@{user}>" if (user := answerer(state, seats)) else target), fields)


def trade(state: State, seats: list[SeatRow], lang: str, *, game: int = 0) -> tuple[str | None, discord.Embed]:
    """An offer on the table: both sides as fields; the content pings the person who must answer."""
    tr = state.trade
    assert tr is not None
    title, colour, answer, fields = trade_parts(state, seats, lang)
    embed = _embed(title, colour, answer)
    for name, value, inline in fields:
        _field(embed, name, value, inline=inline)
    if game:
        _footer(embed, state, game, lang)
    user = answerer(state, seats)
    return (f"<@{user}>" if user else None), embed


def trade_outcome_parts(state: State, outcome: list[dict], lang: str, *,
                        countered: bool = False) -> tuple[str, discord.Colour, str, list[Field]]:
    """A settled, rejected or cancelled offer's words: the title, the colour, what happened and, for a settled
    trade, what moved each way."""
    done = next((e for e in outcome if e["code"] == "trade_done"), None)
    codes = {e["code"] for e in outcome}
    colour = GREEN if done else GREY if countered else RED if "trade_rejected" in codes else GREY
    key = ("embed.trade_done" if done else "embed.trade_countered" if countered
           else "embed.trade_rejected" if "trade_rejected" in codes else "embed.trade_off")
    lines = [describe(e, state, lang) for e in outcome]
    fields: list[Field] = []
    if done is not None and "give" in done:
        for seat, side in ((done["seat"], done.get("give") or {}), (done["target"], done.get("take") or {})):
            fields.append((t(lang, "embed.gives", seat=texts.seat_label(state, seat)),
                           texts.offer_text(state, side.get("titles", ()), side.get("cash", 0),
                                            len(side.get("cards", ())), lang), True))
    return t(lang, key), colour, "\n".join(line for line in lines if line) or t(lang, "trade.closed"), fields


def trade_outcome(state: State, outcome: list[dict], lang: str, *, game: int = 0,
                  countered: bool = False) -> discord.Embed:
    """The offer's message once it is settled, rejected (`countered`: to make an offer of one's own) or cancelled:
    what happened, and for a settled trade what moved each way."""
    title, colour, told_, fields = trade_outcome_parts(state, outcome, lang, countered=countered)
    embed = _embed(title, colour, told_)
    for name, value, inline in fields:
        _field(embed, name, value, inline=inline)
    if game:
        _footer(embed, state, game, lang)
    return embed


# -- notices and the end ------------------------------------------------------------------------------
def notice(line: str, colour: discord.Colour = NEUTRAL) -> tuple[str | None, discord.Embed]:
    """A one-off message for the table (a warning, "played for…", someone back): the text in an embed; the
    mentions it names, alone, as the content (a mention inside an embed never pings)."""
    users = list(dict.fromkeys(MENTION.findall(line)))
    content = " ".join(f"<@{u}>" for u in users) or None
    return content, discord.Embed(description=cut(line, DESCRIPTION_MAX), colour=colour)


def standings_parts(state: State, rows: Iterable[Standing], lang: str) -> tuple[discord.Colour, list[str]]:
    """The end of a game's colour (the winner's seat) and its ranking, a line each."""
    rows = list(rows)
    lines = []
    for row in rows:
        key = "over.row_out" if row.out else "over.row"
        lines.append(t(lang, key, rank=row.rank, seat=texts.seat_label(state, row.seat),
                       worth=texts.cash(state, row.net_worth), cash=texts.cash(state, row.cash)))
    first = next((r.seat for r in rows if r.rank == 1 and not r.out), state.winner)
    return (seat_colour(first) if first is not None and first >= 0 else GREY), lines


def standings(state: State, head: str, rows: Iterable[Standing], lang: str, *, picture: bool,
              game: int = 0, ratings: Iterable[str] = ()) -> discord.Embed:
    """The end of a game: the ranking, what it did to its people's ratings (`ratings`: a line each), the
    end-of-game chart as the picture."""
    colour, lines = standings_parts(state, rows, lang)
    embed = _embed(head, colour)
    for k, value in enumerate(chunks(newest(lines, TOTAL_MAX - 600))):
        _field(embed, t(lang, "embed.standings") if k == 0 else BLANK, value)
    rated = list(ratings)
    if rated:
        _field(embed, t(lang, "embed.ratings"), "\n".join(newest(rated, FIELD_VALUE_MAX)))
    if picture:
        embed.set_image(url=f"attachment://{SUMMARY}")
    if game:
        _footer(embed, state, game, lang)
    return embed
