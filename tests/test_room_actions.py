"""Room actions: seats, bots, deals, moves, leaving, the timer, and the
events that let a client follow along."""

import pytest
from django.contrib.auth.models import User

from accounts.players import claim_guest
from games.errors import ActionError, Conflict
from rooms import actions, reads, sql
from rooms.models import CODE_ALPHABET, Event, Racer, Room
from rooms.race import LATE_JOIN_MS
from tests.room_helpers import (
    apply_events,
    fresh_state,
    person,
    solution,
)

pytestmark = pytest.mark.django_db


def dealt(room, host, pile="small", limit=0):
    return actions.deal_round(room.code, host, "race", pile, limit)


def take_all(room, player, pairs, clock, first_move=0):
    for move, pair in enumerate(pairs, start=first_move):
        clock.advance(1000)
        actions.take_pair(room.code, player, *pair, move)


def racer(room, seat) -> Racer:
    return Room.objects.get(pk=room.pk).current_round.racers.get(seat=seat)


def error_code(call) -> str:
    with pytest.raises(ActionError) as e:
        call()
    return e.value.code


class TestSeats:
    def test_a_new_room_has_a_short_code_and_its_host_in_seat_0(self, clock, ann):
        room = actions.create_room(ann, "  Ann   Lee ")
        assert len(room.code) == 5 and set(room.code) <= set(CODE_ALPHABET)
        assert room.host == ann and room.status == Room.Status.LOBBY
        state = fresh_state(room.code)
        assert state["members"] == [{"seat": 0, "name": "Ann Lee", "bot": ""}]
        assert state["room"]["host_seat"] == 0

    def test_members_are_listed_in_join_order(self, room, clock):
        actions.join_room(room.code, person("Cat"), "Cat")
        names = [m["name"] for m in fresh_state(room.code)["members"]]
        assert names == ["Ann", "Bob", "Cat"]

    def test_joining_again_keeps_the_seat_and_changes_the_name(self, room, bob):
        actions.join_room(room.code, bob, "Bobby")
        members = fresh_state(room.code)["members"]
        assert members[1] == {"seat": 1, "name": "Bobby", "bot": ""}
        assert len(members) == 2

    def test_a_name_is_needed(self, clock, ann):
        assert error_code(lambda: actions.create_room(ann, "   ")) == "bad_name"

    def test_an_unknown_code_is_not_found(self, clock, ann):
        assert error_code(lambda: actions.join_room("QQQQQ", ann, "Ann")) == (
            "not_found"
        )


class TestBots:
    def test_the_host_adds_up_to_three_bots(self, room, ann):
        for level in ("easy", "medium", "easy"):
            actions.add_bot(room.code, ann, level)
        bots = [m for m in fresh_state(room.code)["members"] if m["bot"]]
        assert [b["name"] for b in bots] == ["Easy bot", "Medium bot", "Easy bot 2"]
        assert error_code(lambda: actions.add_bot(room.code, ann, "hard")) == (
            "too_many_bots"
        )

    def test_only_the_host_adds_or_removes_bots(self, room, ann, bob):
        assert error_code(lambda: actions.add_bot(room.code, bob, "hard")) == (
            "not_host"
        )
        actions.add_bot(room.code, ann, "hard")
        assert error_code(lambda: actions.remove_bot(room.code, bob, 2)) == "not_host"

    def test_the_host_removes_a_bot_but_not_a_person(self, room, ann):
        actions.add_bot(room.code, ann, "hard")
        actions.remove_bot(room.code, ann, 2)
        assert len(fresh_state(room.code)["members"]) == 2
        assert error_code(lambda: actions.remove_bot(room.code, ann, 1)) == "no_bot"

    def test_an_unknown_level_is_refused(self, room, ann):
        assert error_code(lambda: actions.add_bot(room.code, ann, "god")) == (
            "bad_level"
        )


class TestDeal:
    def test_only_the_host_starts_the_game_and_deals(self, clock, ann, bob):
        room = actions.create_room(ann, "Ann")
        actions.join_room(room.code, bob, "Bob")
        assert error_code(lambda: actions.start_game(room.code, bob)) == "not_host"
        assert error_code(lambda: dealt(room, ann)) == "not_started"
        actions.start_game(room.code, ann)
        assert error_code(lambda: dealt(room, bob)) == "not_host"

    def test_everyone_seated_races_on_the_same_deal(self, room, ann):
        actions.add_bot(room.code, ann, "medium")
        dealt(room, ann, pile="big", limit=10)
        rnd = fresh_state(room.code)["round"]
        assert rnd["layout"]["slug"] == "turtle" and len(rnd["positions"]) == 144
        assert [r["seat"] for r in rnd["racers"]] == [0, 1, 2]
        assert all(r["faces"] == rnd["faces"] for r in rnd["racers"])
        assert rnd["limit_ms"] == 600_000
        assert fresh_state(room.code)["room"]["settings"] == {
            "mode": "race",
            "pile": "big",
            "limit": 10,
        }

    def test_bad_choices_are_refused(self, room, ann):
        assert error_code(lambda: dealt(room, ann, pile="huge")) == "bad_pile"
        assert error_code(lambda: dealt(room, ann, limit=7)) == "bad_limit"
        mode = lambda: actions.deal_round(room.code, ann, "solo", "small", 0)  # noqa: E731
        assert error_code(mode) == "bad_mode"

    def test_no_new_deal_while_racing_and_play_again_after(self, room, ann, clock):
        dealt(room, ann)
        assert error_code(lambda: dealt(room, ann)) == "racing"
        clock.advance(2000)
        take_all(room, ann, solution(room), clock)
        actions.end_now(room.code, ann)
        dealt(room, ann)
        assert fresh_state(room.code)["round"]["number"] == 2


class TestMoves:
    def test_a_pair_is_taken_on_the_players_own_board(self, room, ann, clock):
        dealt(room, ann)
        clock.advance(2000)
        pair = solution(room)[0]
        actions.take_pair(room.code, ann, *pair, 0)
        assert racer(room, 0).matches == 1
        assert racer(room, 1).matches == 0

    def test_a_refused_pair_changes_nothing(self, room, ann, clock):
        dealt(room, ann)
        clock.advance(2000)
        version = Room.objects.get(pk=room.pk).version
        a, b = solution(room)[0]
        assert error_code(lambda: actions.take_pair(room.code, ann, a, a, 0)) == (
            "same"
        )
        assert Room.objects.get(pk=room.pk).version == version
        assert racer(room, 0).steps == []

    def test_a_retried_pair_makes_no_event(self, room, ann, clock):
        dealt(room, ann)
        clock.advance(2000)
        pair = solution(room)[0]
        actions.take_pair(room.code, ann, *pair, 0)
        version = Room.objects.get(pk=room.pk).version
        actions.take_pair(room.code, ann, *pair, 0)
        assert Room.objects.get(pk=room.pk).version == version

    def test_racers_kept_between_moves_are_what_their_rows_say(
        self, room, ann, bob, clock
    ):
        # rooms.sql keeps each racer's state and decodes only what a move
        # added to its row: after pairs, an undo and pairs again it must
        # still read exactly what the rows hold.
        dealt(room, ann)
        clock.advance(2000)
        pairs = solution(room)
        take_all(room, ann, pairs[:3], clock)
        actions.undo(room.code, ann, 3)
        take_all(room, ann, pairs[2:5], clock, first_move=2)
        take_all(room, bob, pairs[:1], clock)
        rnd = Room.objects.get(pk=room.pk).current_round
        state = sql.load_play(rnd.pk).state
        assert state.racers == tuple(r.state() for r in rnd.racers.all())
        assert state.racer(0).matches == 5

    def test_a_stranger_cannot_act(self, room, ann, clock):
        dealt(room, ann)
        clock.advance(2000)
        pair = solution(room)[0]
        stranger = person("Eve")
        assert error_code(lambda: actions.take_pair(room.code, stranger, *pair, 0)) == (
            "not_member"
        )

    def test_anyone_pauses_and_anyone_resumes(self, room, ann, bob, clock):
        dealt(room, ann)
        clock.advance(2000)
        actions.pause(room.code, bob)
        assert error_code(
            lambda: actions.take_pair(room.code, ann, *solution(room)[0], 0)
        ) == ("paused")
        actions.resume(room.code, ann)
        actions.take_pair(room.code, ann, *solution(room)[0], 0)

    def test_the_hint_is_free_and_changes_nothing(self, room, ann, clock):
        dealt(room, ann)
        clock.advance(2000)
        version = Room.objects.get(pk=room.pk).version
        found = actions.use_hint(room.code, ann)
        assert found.pair is not None and found.clearable
        assert Room.objects.get(pk=room.pk).version == version

    def test_only_the_host_ends_the_race_and_only_when_done(
        self, room, ann, bob, clock
    ):
        dealt(room, ann)
        clock.advance(2000)
        assert error_code(lambda: actions.end_now(room.code, ann)) == "host_playing"
        take_all(room, ann, solution(room), clock)
        assert error_code(lambda: actions.end_now(room.code, bob)) == "not_host"
        actions.end_now(room.code, ann)
        rnd = fresh_state(room.code)["round"]
        assert rnd["status"] == "over"
        assert [(s["seat"], s["place"]) for s in rnd["standings"]] == [(0, 1), (1, 2)]


class TestLateJoiner:
    def test_a_joiner_in_the_first_seconds_races(self, room, ann, clock):
        dealt(room, ann)
        clock.advance(LATE_JOIN_MS - 1000)
        actions.join_room(room.code, person("Cat"), "Cat")
        assert [r["seat"] for r in fresh_state(room.code)["round"]["racers"]] == [
            0,
            1,
            2,
        ]

    def test_a_later_joiner_waits_for_the_next_deal(self, room, ann, clock):
        dealt(room, ann)
        clock.advance(LATE_JOIN_MS + 1000)
        cat = person("Cat")
        actions.join_room(room.code, cat, "Cat")
        assert len(fresh_state(room.code)["round"]["racers"]) == 2
        assert error_code(lambda: actions.take_pair(room.code, cat, 0, 1, 0)) == (
            "not_racing"
        )
        # Nor may they stop everyone else's clock.
        assert error_code(lambda: actions.pause(room.code, cat)) == "not_racing"
        assert fresh_state(room.code)["round"]["paused"] is False


class TestLeaving:
    def test_a_racer_who_leaves_stops_with_their_matches(self, room, ann, bob, clock):
        dealt(room, ann)
        clock.advance(2000)
        actions.take_pair(room.code, bob, *solution(room)[0], 0)
        actions.leave(room.code, bob)
        assert racer(room, 1).status == "left"
        assert [m["seat"] for m in fresh_state(room.code)["members"]] == [0]

    def test_the_host_leaving_ends_the_game_and_the_room_goes_back_to_the_lobby(
        self, room, ann, bob
    ):
        dealt(room, ann)
        actions.leave(room.code, ann)
        state = fresh_state(room.code)
        assert state["room"]["status"] == "lobby"
        assert state["room"]["host_seat"] == 1
        assert state["round"] is None
        assert Room.objects.get(pk=room.pk).wake_at is None

    def test_a_room_with_only_bots_left_closes(self, clock, ann):
        room = actions.create_room(ann, "Ann")
        actions.add_bot(room.code, ann, "easy")
        actions.leave(room.code, ann)
        assert Room.objects.get(pk=room.pk).status == Room.Status.CLOSED
        assert error_code(lambda: actions.join_room(room.code, ann, "Ann")) == (
            "not_found"
        )


class TestTimer:
    def test_a_bot_moves_when_due_and_only_once(self, room, ann, clock):
        actions.add_bot(room.code, ann, "hard")
        dealt(room, ann)
        room.refresh_from_db()
        clock.now = room.wake_at
        assert actions.due_rooms() == [room.pk]
        assert actions.apply_due_timers(room.pk)
        assert racer(room, 2).matches == 1
        # A second timer process arriving late finds nothing due.
        assert not actions.apply_due_timers(room.pk)
        assert racer(room, 2).matches == 1

    def test_nothing_happens_before_it_is_due(self, room, ann, clock):
        actions.add_bot(room.code, ann, "hard")
        dealt(room, ann)
        assert actions.due_rooms() == []
        assert not actions.apply_due_timers(room.pk)

    def test_the_time_limit_ends_the_race(self, room, ann, clock):
        dealt(room, ann, limit=5)
        room.refresh_from_db()
        clock.to_race_ms(room, 5 * 60_000)
        assert actions.apply_due_timers(room.pk)
        rnd = fresh_state(room.code)["round"]
        assert rnd["status"] == "over"
        assert {r["status"] for r in rnd["racers"]} == {"timed_out"}
        assert Room.objects.get(pk=room.pk).wake_at is None

    def test_bots_race_to_the_end_with_the_timer_alone(self, room, ann, bob, clock):
        actions.add_bot(room.code, ann, "hard")
        dealt(room, ann, limit=5)
        for _ in range(1000):
            room.refresh_from_db()
            if room.wake_at is None:
                break
            clock.now = room.wake_at
            actions.apply_due_timers(room.pk)
        rnd = fresh_state(room.code)["round"]
        assert rnd["status"] == "over"
        assert rnd["standings"][0]["seat"] == 2
        assert rnd["racers"][2]["status"] == "cleared"


class TestEvents:
    def test_events_applied_to_an_old_state_give_the_fresh_state(
        self, room, ann, bob, clock
    ):
        """What a reconnecting client does must end exactly where a new
        client starts."""
        start = fresh_state(room.code)
        actions.add_bot(room.code, ann, "hard")
        dealt(room, ann, limit=5)
        pairs = solution(room)
        clock.advance(2000)
        actions.take_pair(room.code, ann, *pairs[0], 0)
        actions.take_pair(room.code, bob, *pairs[0], 0)
        actions.undo(room.code, bob, 1)
        actions.pause(room.code, bob)
        actions.resume(room.code, ann)
        room.refresh_from_db()
        clock.now = room.wake_at
        actions.apply_due_timers(room.pk)
        actions.join_room(room.code, person("Cat"), "Cat")
        take_all(room, ann, pairs[1:], clock, first_move=1)
        actions.leave(room.code, bob)
        events = actions.events_since(Room.objects.get(pk=room.pk), start["version"])
        assert apply_events(start, events) == fresh_state(room.code)

    def test_versions_count_up_by_one(self, room, ann):
        dealt(room, ann)
        versions = list(
            Event.objects.filter(room=room)
            .order_by("version")
            .values_list("version", flat=True)
        )
        assert versions == list(range(1, len(versions) + 1))

    def test_a_client_far_behind_gets_none(self, room, ann, monkeypatch):
        monkeypatch.setattr(reads, "MAX_REPLAY", 2)
        latest = Room.objects.get(pk=room.pk)
        assert actions.events_since(latest, latest.version - 2) is not None
        assert actions.events_since(latest, latest.version - 3) is None

    def test_events_no_longer_kept_give_none(self, room, ann):
        Event.objects.filter(room=room, version=1).delete()
        assert actions.events_since(Room.objects.get(pk=room.pk), 0) is None

    def test_events_are_published_after_commit_only(
        self, room, ann, clock, monkeypatch, django_capture_on_commit_callbacks
    ):
        sent = []
        monkeypatch.setattr(
            "rooms.publish._send", lambda rooms: sent.extend(ev for _, ev in rooms)
        )
        with django_capture_on_commit_callbacks(execute=True):
            dealt(room, ann)
        assert [e["kind"] for e in sent[0]] == ["room", "round"]
        refused = pytest.raises(Conflict)
        with django_capture_on_commit_callbacks(execute=True), refused:
            dealt(room, ann)
        assert len(sent) == 1


class TestSigningIn:
    """A guest who signs in into an account that has played before."""

    def test_seats_move_to_the_account_a_guest_merges_into(self, room, bob):
        user = User.objects.create_user("bob", password="x" * 12)
        account = person("Bob's account")
        account.user = user
        account.save()
        claim_guest(bob, user)
        members = fresh_state(room.code)["members"]
        assert [m["seat"] for m in members] == [0, 1]
        assert room.members.get(seat=1).player_id == account.pk

    def test_the_host_role_moves_too(self, room, ann):
        user = User.objects.create_user("ann", password="x" * 12)
        account = person("Ann's account")
        account.user = user
        account.save()
        claim_guest(ann, user)
        room.refresh_from_db()
        assert room.host_id == account.pk
        assert room.members.get(seat=0).player_id == account.pk
