"""Room manners (issue 15, point 4): only players still in the game pause,
each a few times a deal; the host removes a person and locks the room.
Every refusal is a clear error and changes nothing."""

import pytest
from channels.db import database_sync_to_async

from accounts.players import GUEST_COOKIE
from games.errors import ActionError
from rooms import actions
from rooms.actions import PAUSES_PER_DEAL
from rooms.models import Member, Room
from rooms.race import LATE_JOIN_MS
from tests.room_helpers import guest_cookie_value, person
from tests.run_helpers import Browser
from tests.test_room_consumer import (  # noqa: F401  (fresh_layer: autouse)
    fresh_layer,
    joined,
    reply_to,
)

pytestmark = pytest.mark.django_db


def version(room: Room) -> int:
    return Room.objects.get(pk=room.pk).version


def refused(code: str, call, *args) -> None:
    """`call` is refused with `code` and the room's version does not move."""
    room = Room.objects.get(code=args[0])
    before = version(room)
    with pytest.raises(ActionError) as caught:
        call(*args)
    assert caught.value.code == code and caught.value.message
    assert version(room) == before


def deal(room, ann, mode="race"):
    actions.deal_round(room.code, ann, mode, "small", 0)


def paused(room) -> bool:
    return Room.objects.get(pk=room.pk).current_round.paused


class TestWhoPauses:
    def test_a_late_joiner_who_is_not_racing_cannot_pause(self, room, ann, clock):
        deal(room, ann)
        clock.advance(LATE_JOIN_MS + 1000)
        cat = person("Cat")
        actions.join_room(room.code, cat, "Cat")
        refused("not_racing", actions.pause, room.code, cat)
        assert not paused(room)

    def test_a_watcher_of_a_together_pile_cannot_pause(self, room, ann, clock):
        deal(room, ann, "together")
        cat = person("Cat")
        actions.join_room(room.code, cat, "Cat")
        refused("not_seated", actions.pause, room.code, cat)

    def test_a_racer_pauses_and_resumes(self, room, ann, bob, clock):
        deal(room, ann)
        actions.pause(room.code, bob)
        assert paused(room)
        actions.resume(room.code, ann)
        assert not paused(room)


class TestPausesPerDeal:
    def test_each_player_has_a_few_pauses_a_deal(self, room, ann, bob, clock):
        deal(room, ann)
        for _ in range(PAUSES_PER_DEAL):
            actions.pause(room.code, bob)
            actions.pause(room.code, bob)  # already paused: free
            actions.resume(room.code, bob)
        refused("no_pauses_left", actions.pause, room.code, bob)
        assert not paused(room)
        actions.pause(room.code, ann)  # Ann still has hers
        assert paused(room)

    def test_a_new_deal_gives_the_pauses_back(self, room, ann, bob, clock):
        deal(room, ann)
        for _ in range(PAUSES_PER_DEAL):
            actions.pause(room.code, bob)
            actions.resume(room.code, bob)
        rnd = Room.objects.get(pk=room.pk).current_round
        rnd.status = rnd.Status.OVER
        rnd.save(update_fields=["status"])
        deal(room, ann)
        actions.pause(room.code, bob)
        assert paused(room)

    def test_the_rules_page_says_how_many(self, client):
        page = client.get("/rooms/rules")
        assert page.status_code == 200
        assert f"{PAUSES_PER_DEAL} pauses per deal".encode() in page.content
        assert b"lock" in page.content and b"remove" in page.content


class TestHost:
    def test_the_host_removes_a_person_who_cannot_join_again(self, room, ann, bob):
        actions.remove_member(room.code, ann, 1)
        assert list(room.members.values_list("name", flat=True)) == ["Ann"]
        refused("removed", actions.join_room, room.code, bob, "Bob")
        assert room.members.count() == 1

    def test_only_the_host_removes_and_not_themselves(self, room, ann, bob):
        refused("not_host", actions.remove_member, room.code, bob, 0)
        refused("host_seat", actions.remove_member, room.code, ann, 0)
        refused("no_person", actions.remove_member, room.code, ann, 7)
        assert room.members.count() == 2

    def test_a_removed_racer_is_out_of_the_race(self, room, ann, bob, clock):
        deal(room, ann)
        actions.remove_member(room.code, ann, 1)
        racers = Room.objects.get(pk=room.pk).current_round.racers.all()
        assert [r.seat for r in racers if r.status == "playing"] == [0]

    def test_a_locked_room_takes_nobody_new(self, room, ann, bob):
        actions.lock_room(room.code, ann, True)
        cat = person("Cat")
        refused("locked", actions.join_room, room.code, cat, "Cat")
        actions.join_room(room.code, bob, "Bobby")  # a member still renames
        refused("not_host", actions.lock_room, room.code, bob, False)
        actions.lock_room(room.code, ann, False)
        actions.join_room(room.code, cat, "Cat")
        assert room.members.count() == 3

    def test_the_join_page_says_the_room_is_locked(self, room, ann):
        actions.lock_room(room.code, ann, True)
        response = Browser().form(f"/r/{room.code}", {"name": "Cat"})
        assert response.status_code == 400
        assert b"locked" in response.content
        assert Member.objects.filter(room=room).count() == 2


class TestRemovedStayOut:
    """A removed person does not get back in without the host's say: not by
    their own cookie or account, nor as a newcomer with a fresh cookie."""

    def test_a_fresh_cookie_does_not_get_back_in(self, room, ann, bob):
        actions.remove_member(room.code, ann, 1)
        assert Room.objects.get(pk=room.pk).locked  # the removal locked it
        refused("removed", actions.join_room, room.code, bob, "Bob")
        fresh = person("Bob")  # cookies cleared: a new guest
        refused("locked", actions.join_room, room.code, fresh, "Bob")
        response = Browser().form(f"/r/{room.code}", {"name": "Bob"})
        assert response.status_code == 400 and b"locked" in response.content
        assert room.members.count() == 1

    def test_the_host_lets_them_in_again(self, room, ann, bob):
        actions.remove_member(room.code, ann, 1)
        actions.lock_room(room.code, ann, False)
        actions.join_room(room.code, bob, "Bob")
        assert room.members.filter(player=bob).exists()

    def test_a_removed_person_is_told_why_before_typing(self, room, ann, bob, client):
        actions.remove_member(room.code, ann, 1)
        client.cookies[GUEST_COOKIE] = guest_cookie_value(bob)
        page = client.get(f"/r/{room.code}")
        assert page.status_code == 200
        assert b"The host removed you from this room." in page.content
        assert b'id="join-form"' not in page.content

    def test_a_locked_rooms_link_says_so_before_typing(self, room, ann, client):
        actions.lock_room(room.code, ann, True)
        page = client.get(f"/r/{room.code}")
        assert page.status_code == 200
        assert b'data-reason="locked"' in page.content
        assert b'id="join-form"' not in page.content


@pytest.mark.django_db(transaction=True)
async def test_a_removed_players_socket_is_closed_as_not_seated():
    from tests.test_room_consumer import racing_room

    room, ann, bob, _ = await racing_room()
    ws_ann, ws_bob = await joined(room, ann), await joined(room, bob)
    ack = await reply_to(ws_ann, {"type": "remove", "seat": 1, "ref": 1})
    assert ack["type"] == "ack"
    while (out := await ws_bob.receive_output())["type"] != "websocket.close":
        pass
    assert out["code"] == 4403
    lock = await reply_to(ws_ann, {"type": "lock", "locked": True, "ref": 2})
    assert lock["type"] == "ack"
    assert await database_sync_to_async(lambda: Room.objects.get(pk=room.pk).locked)()
    await ws_ann.disconnect()
