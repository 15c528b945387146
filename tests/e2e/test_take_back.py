"""Taking a misclick back with the table's consent, through the fake Discord: accepted, refused, refused by the
engine once the dice are rolled, and a request that outlives a kill of the bot. The store's replay verifies
every game that took a move back."""

from __future__ import annotations

from bot.store.replay import verify
from devkit.world import World
from engine import TAKE_BACK, State
from fakediscord import FakeMessage, FakeUser


def _buying(st: State) -> bool:
    return st.phase == "buy" and not st.seats[st.current].computer


async def _bought(world: World, gid: int) -> tuple[State, FakeUser, int]:
    """Play until a person may buy a title, and buy it: (the state before, the buyer, the title)."""
    before = await world.play_until(gid, _buying)
    buyer = world.user_of(gid, before.current)
    square = before.seats[before.current].pos
    table = world.table()
    assert table is not None
    await world.act(gid, buyer, table, "buy")
    await world.eventually(lambda: world.game(gid).state.owner[square] == before.current, what="the title bought")
    return before, buyer, square


async def _request(world: World, who: FakeUser) -> FakeMessage:
    """`/turista undo`: the public request with its Yes and No."""
    reply = await world.slash(who, "turista undo")
    assert not reply.ephemeral, reply.content
    request = world.with_verb("undo_yes")
    assert request is not None, reply.content
    return request


def _verified(world: World, gid: int) -> None:
    verdicts = list(verify(world.store, [gid]))
    assert all(v.ok for v in verdicts), [v.line() for v in verdicts]


async def test_a_misclick_taken_back_with_the_others_yes(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    before, buyer, square = await _bought(world, gid)
    other = world.beto if buyer is world.ana else world.ana
    request = await _request(world, buyer)
    assert "deshacer 1 jugada" in request.text and world.game(gid).seat_of(other.id) is not None

    # Whoever asked cannot answer for the others; a stranger is not asked.
    own = await world.click(buyer, request, "undo_yes")
    assert own.ephemeral and "propia" in (own.content or "")
    stranger = await world.click(world.dora, request, "undo_yes")
    assert stranger.ephemeral

    answer = await world.click(other, request, "undo_yes")
    assert answer.response_type in (6, 7)
    st = await world.eventually(lambda: (s := world.game(gid).state) is not None and s.owner[square] == -1 and s)
    # The game is as it was before the purchase, one version on: the same decision, the same cash.
    assert st.phase == "buy" and st.seats[st.current].cash == before.seats[before.current].cash
    assert st.version == before.version + 2
    await world.fake.wait_for(lambda: "Se deshizo" in request.text and not request.custom_ids(), timeout=5,
                              what="the request to say it was made")
    await world.fake.wait_for(lambda: (t := world.table()) is not None and world.version_of(t) == st.version,
                              timeout=5, what="the table to show the game taken back")
    assert "deshace 1 jugada" in world.table().text  # type: ignore[union-attr]
    rows = [r for r in world.store.log(gid) if r.action and TAKE_BACK in r.action]
    assert len(rows) == 1 and rows[0].actor == buyer.id
    # The decision is made again, the other way, and the game goes on.
    await world.act(gid, buyer, world.table(), "decline")  # type: ignore[arg-type]
    await world.play_until(gid, lambda s: s.turn >= st.turn + 2)
    _verified(world, gid)


async def test_a_take_back_refused_and_one_the_engine_refuses_after_the_dice(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    _, buyer, square = await _bought(world, gid)
    other = world.beto if buyer is world.ana else world.ana
    request = await _request(world, buyer)
    version = world.game(gid).version
    answer = await world.click(other, request, "undo_no")
    assert answer.response_type in (6, 7)
    await world.fake.wait_for(lambda: "dijo que no" in request.text and not request.custom_ids(), timeout=5,
                              what="the request to say it was refused")
    assert world.game(gid).version == version and world.game(gid).state.owner[square] >= 0  # type: ignore[union-attr]
    # Asked again at the same point: refused once is enough.
    again = await world.slash(buyer, "turista undo")
    assert again.ephemeral and "Ya se pidió" in (again.content or "")

    # Once the dice are rolled, nothing before them may go: the engine says so, privately.
    st = await world.play_until(gid, lambda s: s.phase == "roll" and not s.seats[s.current].computer
                                and s.version > version)
    roller = world.user_of(gid, st.current)
    await world.act(gid, roller, world.table(), "roll")  # type: ignore[arg-type]
    refused = await world.slash(roller, "turista undo")
    assert refused.ephemeral and "ya no se puede deshacer" in (refused.content or "")
    # Nor may someone who did not make the last move.
    other = world.beto if roller is world.ana else world.ana
    refused = await world.slash(other, "turista undo")
    assert refused.ephemeral and "ya no se puede deshacer" in (refused.content or "")
    _verified(world, gid)


async def test_a_kill_between_two_yeses_loses_nothing(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.carl])
    await world.start(gid, world.ana)
    before, buyer, square = await _bought(world, gid)
    others = [u for u in (world.ana, world.beto, world.carl) if u is not buyer]
    request = await _request(world, buyer)
    first = await world.click(others[0], request, "undo_yes")
    assert first.response_type in (6, 7)
    await world.fake.wait_for(lambda: "Falta el sí de" in request.text and others[1].name.split()[0] in request.text
                              and others[0].name.split()[0] not in request.text.split("Falta")[1], timeout=5,
                              what="the request to wait for the last yes")

    await world.bot.kill()
    await world.bot.start()

    # The message from before the kill, its buttons as they were: the yes said before still counts.
    again = await world.click(others[0], request, "undo_yes")
    assert again.ephemeral and "Ya dijiste" in (again.content or "")
    await world.click(others[1], request, "undo_yes")
    st = await world.eventually(lambda: (s := world.game(gid).state) is not None and s.owner[square] == -1 and s)
    assert st.phase == "buy" and st.version == before.version + 2
    await world.fake.wait_for(lambda: "Se deshizo" in request.text and not request.custom_ids(), timeout=5,
                              what="the request to say it was made")
    _verified(world, gid)


async def test_under_the_house_rule_the_hosts_yes_alone_takes_back_and_the_game_is_rated_for_nobody(
        world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.carl])
    world.store.update_settings(gid, {**world.game(gid).settings, "take_back_host": True})
    await world.start(gid, world.ana)
    _, buyer, square = await _bought(world, gid)
    if buyer is world.ana:
        # The host asks: nobody else is asked, the take-back is made at once.
        answer = await world.slash(buyer, "turista undo")
        assert answer.ephemeral and "clasificación" in (answer.content or "")
    else:
        request = await _request(world, buyer)
        assert "clasificación" in request.text and "organiza" in request.text
        other = world.carl if buyer is world.beto else world.beto
        not_asked = await world.click(other, request, "undo_yes")
        assert not_asked.ephemeral and "no espera tu respuesta" in (not_asked.content or "")
        await world.click(world.ana, request, "undo_yes")
    await world.eventually(lambda: world.game(gid).state.owner[square] == -1, what="the take-back")  # type: ignore[union-attr]
    assert world.game(gid).settings.get("host_took_back") is True
    _verified(world, gid)
