"""Moments the fault tests start from."""

from __future__ import annotations

from devkit.world import World
from engine import State, legal_actions
from fakediscord.faults import Hold


def ana_may_end_her_turn(st: State, seat: int) -> bool:
    return (st.current == seat and not st.debts and st.auction is None and st.trade is None
            and any(a.kind == "end_turn" for a in legal_actions(st, seat)))


async def computer_about_to_move(world: World) -> tuple[int, int, Hold, int]:
    """Ana and a computer; Ana has ended her turn and the new table is held back, so the computer has not
    moved yet: the game id, Ana's seat, the hold (to release) and the version her turn ended at."""
    gid = await world.open_table(world.ana, [], computers=1)
    await world.start(gid, world.ana)
    ana = world.game(gid).seat_of(world.ana.id)
    assert ana is not None
    await world.play_until(gid, lambda st: ana_may_end_her_turn(st, ana), buy=lambda st: False)
    held = world.fake.hold("POST", "/channels/{channel}/messages", channel=world.game(gid).where)
    await world.act(gid, world.ana, world.table(), "end_turn")  # type: ignore[arg-type]
    await held.reached(1)
    return gid, ana, held, world.game(gid).version
