"""Two daphne processes sharing Redis and PostgreSQL serve one race.

Ann (the host) is connected to one process, Bob to the other, a hard bot is
moved by a timer process of its own. Each sees the other's pairs and the
bot's arrive; then Ann's process dies mid-race, the bot plays on, Ann
reconnects to the other process with the version she had and catches up
with what she missed, and the race is played to its end.
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from rooms import actions
from tests.room_helpers import guest_cookie_value, person, solution
from tests.seat_client import WAIT_S, Seat, start_race, take_in_turns
from tests.services import Daphne, manage, needs_services, server_env


def seated_room():
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.add_bot(room.code, ann, "hard")
    actions.start_game(room.code, ann)
    return room, ann, bob


cookie = sync_to_async(guest_cookie_value)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_two_daphne_processes_serve_one_race():
    needs_services("two daphne processes")
    room, ann_player, bob_player = await sync_to_async(seated_room)()
    env = server_env()
    one, two = Daphne(env, "daphne one"), Daphne(env, "daphne two")
    timers = manage(["run_timers"], env)
    processes = [one, two, timers]
    try:
        one.wait_ready()
        two.wait_ready()
        ann = Seat("ann", await cookie(ann_player), room.code)
        bob = Seat("bob", await cookie(bob_player), room.code)
        await ann.connect(one.port)
        await bob.connect(two.port)
        pairs = await start_race(ann, bob, lambda: sync_to_async(solution)(room))

        # Each sees the other's pairs, across the two processes.
        await take_in_turns(ann, bob, pairs, range(6))
        # The bot, moved by the timer process, shows on both.
        for seat in (ann, bob):
            await seat.until(lambda s=seat: s.racer(2)["matches"] >= 1, "the bot")

        # Ann's process dies; the race goes on without it.
        one.stop()
        await asyncio.wait_for(ann.task, WAIT_S)
        seen = ann.racer(2)["matches"]
        await bob.take(pairs[6], 6)
        await bob.until(lambda: bob.racer(2)["matches"] > seen, "the bot move on")
        await ann.connect(two.port)
        await ann.until(lambda: ann.racer(1)["matches"] == 7, "what she missed")
        assert ann.racer(2)["matches"] > seen

        # Both clear their piles on the surviving process; Ann ends the race.
        for move, pair in enumerate(pairs[6:], start=6):
            await ann.take(pair, move)
        for move, pair in enumerate(pairs[7:], start=7):
            await bob.take(pair, move)
        await ann.until(lambda: ann.racer(1)["status"] == "cleared", "Bob clear")
        if ann.state["round"]["status"] == "racing":
            assert (await ann.send({"type": "end_now"}))["type"] == "ack"
        for seat in (ann, bob):
            await seat.until(lambda s=seat: s.state["round"]["status"] == "over", "end")
        places = {s["seat"]: s["place"] for s in bob.state["round"]["standings"]}
        assert places[0] == 1 and places[1] == 2
        fresh = await sync_to_async(actions.snapshot)(room.code)
        assert bob.state["version"] == fresh[0].version
        for seat in (ann, bob):
            await seat.ws.close()
    except BaseException:
        print("\n".join(p.log() for p in processes))
        raise
    finally:
        for p in processes:
            p.stop()
