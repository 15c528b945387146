"""Forged interactions (what a modified client can send): every one gets an answer that says "invalid",
"outdated" or what is wrong with it, nothing changes, nothing raises in the bot, and the game goes on."""

from __future__ import annotations

from typing import Any

from devkit.world import World
from fakediscord import FakeMessage, FakeUser, Reply

BIG = "9" * 5000
BUTTON, SELECT = 2, 3
INTERNAL = ("Algo salió mal", "Something went wrong")


def button(custom_id: str) -> dict[str, Any]:
    return {"custom_id": custom_id, "component_type": BUTTON}


def select(custom_id: str, values: Any) -> dict[str, Any]:
    return {"custom_id": custom_id, "component_type": SELECT, "values": values}


def modal(custom_id: str, **fields: str) -> dict[str, Any]:
    inputs = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in fields.items()]
    return {"custom_id": custom_id, "components": inputs}


def game_cases(g: int, v: int) -> list[tuple[str, dict[str, Any]]]:
    """(kind, data) for the game in play, at version v."""
    at = f"turista:{g}:{v}"
    clicks = [
        "", "nonsense", "turista:", "turista:1:2", f"turista:{BIG}:0:roll", f"turista:{g}:{BIG}:roll",
        "turista:²:0:roll", f"turista:{g}:²:roll", f"turista:{g}:١:roll", f"{at}:ROLL", f"{at}:fly",
        f"turista:{2**70}:0:roll", f"turista:{2**63 + 5}:0:roll", f"{at}:bid:{BIG}", f"{at}:bid:²", f"{at}:bid:-5",
        f"{at}:bid:0", f"{at}:bid_set", f"{at}:roll:²", f"{at}:menu:bogus", f"{at}:menu:{BIG[:40]}",
        f"{at}:accept_trade", f"{at}:counter", f"{at}:withdraw:x", f"turista:{g}:0:trade_money:99",
        f"turista:{g}:0:trade_money:²", f"turista:{g}:0:trade_send:99", f"turista:{g}:0:trade_send:-1",
        f"turista:{g}:0:trade_send:{BIG[:40]}", f"{at}:bid_custom", "x" * 5000,
    ]
    selects: list[tuple[str, Any]] = [
        (f"{at}:pick:build", []), (f"{at}:pick:build", ["²"]), (f"{at}:pick:build", [BIG]),
        (f"{at}:pick:mortgage", ["-1"]), (f"{at}:pick:mortgage", ["999"]), (f"{at}:pick:mortgage", [3]),
        (f"{at}:pick:mortgage", "abc"), (f"{at}:pick:mortgage", None), (f"{at}:pick:mortgage", [["1"]]),
        (f"{at}:pick:take_loan", ["zzz"]), (f"{at}:pick:take_loan", []), (f"{at}:pick:bogus", ["1"]),
        (f"turista:{g}:0:trade_with", []), (f"turista:{g}:0:trade_with", ["²"]), (f"turista:{g}:0:trade_with", ["99"]),
        (f"turista:{g}:0:trade_with", ["0"]), (f"turista:{g}:0:trade_with", [BIG]),
        (f"turista:{g}:0:trade_give:99", ["1"]), (f"turista:{g}:0:trade_give:²", ["1"]),
        (f"turista:{g}:0:trade_take:1", ["999", "²", BIG]),
        (f"turista:{g}:0:trade_give:1", [str(i) for i in range(99)]),
    ]
    modals = [
        modal(f"{at}:bid_set", amount="²"), modal(f"{at}:bid_set", amount=BIG), modal(f"{at}:bid_set", amount="-3"),
        modal(f"turista:{g}:0:trade_money_set:99", give_cash="5"),
        modal(f"turista:{g}:0:trade_money_set:1", give_cash="²"),
        modal(f"turista:{g}:0:trade_money_set:1", give_cash=BIG), modal(f"{at}:roll"),
        {"custom_id": f"{at}:bid_set", "components": "nope"},
        {"custom_id": f"{at}:bid_set", "components": [{"type": 1, "components": [None, 3, {"custom_id": "amount"}]}]},
    ]
    return ([("component", button(c)) for c in clicks] + [("component", select(c, vals)) for c, vals in selects]
            + [("modal", m) for m in modals])


def lobby_cases(g: int) -> list[tuple[str, dict[str, Any]]]:
    at = f"turista:{g}:0"
    selects: list[tuple[str, Any]] = [
        (f"{at}:set:time_limit", []), (f"{at}:set:time_limit", ["²"]), (f"{at}:set:time_limit", [BIG]),
        (f"{at}:set:time_limit", ["61"]), (f"{at}:set:time_limit", ["0060"]), (f"{at}:set:turn_timeout", ["-60"]),
        (f"{at}:set:edition", []), (f"{at}:set:edition", ["atlantis"]), (f"{at}:set:rules", ["x"]),
        (f"{at}:set:ending", ["turns1000"]), (f"{at}:set:bogus", ["1"]), (f"{at}:addbot:level", ["dios"]),
        (f"{at}:addbot:level", []), (f"turista:{g + 1}:0:join", []),
    ]
    return [("component", select(c, vals)) for c, vals in selects] + [("modal", modal(f"{at}:join"))]


async def answered_with_a_refusal(reply: Reply) -> str:
    await reply
    if reply.response_type == 6:  # deferred: the refusal comes as a followup
        await reply.wait_followups(1)
        text = reply.followups[0].content
    else:
        text = reply.content or ""
        assert reply.ephemeral, text
    assert text.startswith("⚠️") and not any(word in text for word in INTERNAL), text
    return text


async def forge_all(world: World, user: FakeUser, message: FakeMessage,
                    cases: list[tuple[str, dict[str, Any]]]) -> None:
    for kind, data in cases:
        reply = await world.fake.forge(user, message.channel, data, kind=kind,  # type: ignore[arg-type]
                                       message=message if kind == "component" else None)
        try:
            await answered_with_a_refusal(reply)
        except (AssertionError, TimeoutError) as error:
            raise AssertionError(f"{kind} {str(data)[:200]}: {error}") from None


async def test_forged_clicks_selects_and_modals_change_nothing(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    table = world.table()
    assert table is not None
    before = world.game(gid)
    await forge_all(world, world.user_of(gid, st.current), table, game_cases(gid, st.version))

    # A lobby in the other channel, forged at too.
    lobby_id = await world.open_table(world.carl, [world.dora], channel=world.other)
    lobby = next(m for m in world.bot_messages(world.other) if world.custom_id_or_none(m, "join"))
    seats = world.game(lobby_id).seats
    settings = world.game(lobby_id).settings
    await forge_all(world, world.carl, lobby, lobby_cases(lobby_id))

    after = world.game(gid)
    assert after.version == before.version and after.snapshot == before.snapshot
    assert world.game(lobby_id).seats == seats and world.game(lobby_id).settings == settings
    # The game goes on as if nothing happened.
    await world.act(gid, world.user_of(gid, st.current), table, "roll")
    assert world.game(gid).version > before.version


async def test_numbers_out_of_range_are_refused_with_the_range(world: World) -> None:
    for amount in (-1, 0, 10**30):
        reply = await world.slash(world.ana, "turista new", start_cash=amount)
        assert reply.ephemeral and "dinero_inicial" in (reply.content or "") and "$1" in (reply.content or ""), \
            reply.content
        assert world.row() is None
    gid = await world.open_table(world.ana, [world.beto], start_cash=123_000)
    st = await world.start(gid, world.ana)
    assert st.seats[0].cash == 123_000
    user = world.user_of(gid, st.current)
    for count in (0, 6, 10**30):
        reply = await world.slash(user, "build", property="Canadá", count=count)
        assert reply.ephemeral and "cantidad" in (reply.content or "") and "5" in (reply.content or ""), reply.content
    for amount in (-1, 10**30):
        reply = await world.slash(user, "bid", amount=amount)
        assert reply.ephemeral and "cantidad" in (reply.content or ""), reply.content
    assert world.game(gid).version == st.version
