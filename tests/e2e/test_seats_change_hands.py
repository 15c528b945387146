"""Seats changing hands during a game, through the fake Discord: a person leaves their seat to a computer (a host
hands the role on) and comes back to it, someone late asks for a computer's seat and the host says yes or no.
The store's replay verifies every such game."""

from __future__ import annotations

from bot.store.replay import verify
from devkit.world import World
from engine import SIT


def _verified(world: World, gid: int) -> None:
    verdicts = list(verify(world.store, [gid]))
    assert all(v.ok for v in verdicts), [v.line() for v in verdicts]


async def test_leaving_to_a_computer_hands_on_the_host_and_the_seat_waits_for_its_person(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.carl])
    await world.start(gid, world.ana)
    asked = await world.slash(world.ana, "turista leave")
    assert asked.ephemeral and asked.message is not None and "Cómo dejas" in asked.content
    # Handing the seat over is the first answer; withdrawing for good is the other.
    assert [c["custom_id"].split(":")[3] for c in asked.message.all_components() if "custom_id" in c] == \
        ["hand_over", "withdraw", "dismiss"]
    await world.click(world.ana, asked.message, "hand_over")
    row = await world.eventually(lambda: (r := world.game(gid)).host_id == world.beto.id and r)
    # Her answer says the seat is a computer's now and how to come back, not that she left the table.
    message = asked.message
    await world.fake.wait_for(lambda: "/turista unirme te lo devuelve" in (message.content or ""), timeout=5,
                              what="the answer to handing the seat over")
    # The seat waits for her: still hers, played by a computer (the log says so, and the state).
    assert row.seats[0].user_id == world.ana.id and row.seats[0].computer == "normal"
    assert row.state is not None and row.state.seats[0].computer == "normal"
    notices = lambda: " ".join(m.text for m in world.bot_messages())  # noqa: E731
    await world.fake.wait_for(lambda: "deja su lugar a la computadora" in notices()
                              and "organiza la mesa ahora" in notices(),
                              timeout=5, what="the table told who left and who hosts now")
    # The new host runs the table: the old one no longer may.
    refused = await world.slash(world.ana, "turista kick", user=world.carl)
    assert refused.ephemeral and "organiza" in (refused.content or "")
    # The computer plays Ana's seat; she comes back to it with /turista join, with no one's yes.
    st = await world.play_until(gid, lambda s: s.turn >= 4)
    back = await world.slash(world.ana, "turista join")
    assert back.ephemeral and "mesa" in (back.content or "")
    row = await world.eventually(lambda: (r := world.game(gid)).seats[0].user_id == world.ana.id and r)
    assert row.seats[0].computer == "" and row.host_id == world.beto.id
    await world.play_until(gid, lambda s: s.turn >= st.turn + 3)
    _verified(world, gid)


async def test_a_late_arrival_takes_a_computers_seat_with_the_hosts_yes(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], computers=2)
    await world.start(gid, world.ana)
    computer = next(s.seat for s in world.game(gid).seats if s.computer)
    cash = world.game(gid).state.seats[computer].cash  # type: ignore[union-attr]

    asked = await world.slash(world.dora, "turista join")
    assert not asked.ephemeral
    request = world.with_verb("sit_yes")
    assert request is not None and "Dora" in request.text
    # Only the host answers; the others are told so.
    refused = await world.click(world.beto, request, "sit_yes")
    assert refused.ephemeral and "organiza" in (refused.content or "")
    # The bot is killed before the host answers: the request's buttons carry all it needs.
    await world.bot.kill()
    await world.bot.start()
    await world.click(world.ana, request, "sit_yes")
    row = await world.eventually(lambda: (r := world.game(gid)).seat_of(world.dora.id) is not None and r)
    seat = row.seat_of(world.dora.id)
    st = row.state
    assert st is not None and seat == computer and not st.seats[seat].computer
    assert next(s for s in row.seats if s.seat == seat).name == "Dora"  # the log keeps no name
    assert st.seats[seat].cash <= cash + 100_000  # the computer's seat as it stood, not a new one
    await world.fake.wait_for(lambda: "Listo" in request.text and not request.custom_ids(), timeout=5,
                              what="the request to say the seat was given")
    sat = [r for r in world.store.log(gid) if r.action and f'"kind":"{SIT}"' in r.action]
    assert "Dora" not in (sat[0].action or "") if sat else False
    assert len(sat) == 1 and sat[0].actor == world.dora.id
    await world.fake.wait_for(lambda: any("Dora se sienta en el lugar" in m.text for m in world.bot_messages()),
                              timeout=5, what="the table to say who sat down")

    # Someone else late: the host says no, and the computer keeps its seat.
    again = await world.slash(world.carl, "turista join")
    assert not again.ephemeral
    request = world.with_verb("sit_no")
    assert request is not None
    await world.click(world.ana, request, "sit_no")
    await world.fake.wait_for(lambda: "keeps" in request.text or "sigue" in request.text, timeout=5,
                              what="the request to say no")
    assert world.game(gid).seat_of(world.carl.id) is None

    # Dora plays the seat from now on: her decisions wait for her.
    await world.play_until(gid, lambda s: s.current == seat and s.phase == "roll")
    table = world.table()
    assert table is not None
    await world.act(gid, world.dora, table, "roll")
    _verified(world, gid)


async def test_under_the_house_rule_anyone_sits_down_in_a_computers_seat_at_once(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], computers=1)
    world.store.update_settings(gid, {**world.game(gid).settings, "join_free": True})
    await world.start(gid, world.ana)
    answer = await world.slash(world.dora, "turista join")
    assert answer.ephemeral and world.with_verb("sit_yes") is None
    row = await world.eventually(lambda: (r := world.game(gid)).seat_of(world.dora.id) is not None and r)
    assert row.state is not None and not row.state.seats[2].computer and row.seats[2].name == "Dora"
    # No computer's seat is left: the next one late is told so.
    late = await world.slash(world.carl, "turista join")
    assert late.ephemeral and "No computer's seat is free" in (late.content or "")
    _verified(world, gid)


async def test_a_person_put_out_by_the_host_takes_their_seat_back(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    beto = world.game(gid).seat_of(world.beto.id)
    # Beto plays a move of his own, then the host puts him out: a computer plays his seat.
    await world.play_until(gid, lambda s: s.current == beto and s.phase == "roll")
    await world.act(gid, world.beto, world.table(), "roll")  # type: ignore[arg-type]
    kicked = await world.slash(world.ana, "turista kick", user=world.beto)
    await kicked.wait_message()
    row = await world.eventually(lambda: (r := world.game(gid)).seats[beto].user_id is None and r)  # type: ignore[index]
    assert row.state is not None and row.state.seats[beto].computer == "normal"  # type: ignore[index]
    # His seat is his to take back, without anyone's yes.
    back = await world.slash(world.beto, "turista join")
    assert back.ephemeral and world.with_verb("sit_yes") is None
    await world.eventually(lambda: world.game(gid).seat_of(world.beto.id) == beto, what="Beto back in his seat")
    await world.play_until(gid, lambda s: s.current == beto and s.phase == "roll")
    await world.act(gid, world.beto, world.table(), "roll")  # type: ignore[arg-type]
    _verified(world, gid)
