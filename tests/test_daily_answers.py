"""Issue 24's paced replay: one account gives up today's daily and asks for
the way through; a second replays that clearing at 260 ms a pair. Now the
way through is refused on an open daily, and even with the witness from the
server's own store the replay does not reach the board: it is faster than
the hard bot's expected time, so it waits for an admin's review."""

from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Player
from dailies import days
from dailies.models import DailyDeal
from dailies.standings import leaderboard
from games.models import BestTime, Run
from games.pace import QUICK_PLAYER_PAIR_MS
from tests.run_helpers import Browser, FakeClock

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)
KEY = f"daily:{TODAY}:tall-turtle"


@pytest.fixture
def today(monkeypatch):
    now = {"day": TODAY}
    monkeypatch.setattr(days, "today", lambda at=None: now["day"])
    return now


@pytest.fixture
def clock(monkeypatch):
    return FakeClock(monkeypatch)


def member(name: str) -> Browser:
    """A registered player signed in on a device of their own."""
    user = get_user_model().objects.create_user(name, password=f"pw-{name}-9x")
    Player.objects.create(user=user, display_name=name)
    me = Browser()
    me.client.force_login(user)
    me.client.get("/accounts/profile/")  # a fresh CSRF cookie for the session
    return me


def replay(me: Browser, run: dict, pairs, clock: FakeClock, ms: int) -> dict:
    """Send the clearing pair by pair, `ms` of clock apart."""
    clock.advance(1500)  # the pile builds on screen first
    for a, b in pairs:
        clock.advance(ms)
        response = me.take(run, a, b)
        assert response.status_code == 200, response.json()
        run = response.json()
    return run


def test_the_way_through_is_refused_while_the_daily_is_open(today, clock):
    ann = member("ann")
    run = ann.start(KEY).json()
    assert run["way_opens"]["at"].startswith("2026-12-31T00:00:00")
    assert "31 December 2026" in run["way_opens"]["message"]
    refused = ann.act(run["id"], "way")
    assert refused.status_code == 403
    assert refused.json()["error"] == "answer_hidden"
    assert "31 December 2026" in refused.json()["message"]
    # Giving up does not open it either.
    given_up = ann.act(run["id"], "give-up").json()
    assert given_up["status"] == "lost" and given_up["way_opens"]
    after = ann.act(run["id"], "way")
    assert after.status_code == 403 and "way" not in after.json()
    # Where it turned and hints stay; the run is unchanged by the refusals.
    assert ann.client.get(f"/play/api/runs/{run['id']}/turned").status_code == 200
    again = ann.act(run["id"], "restart").json()
    hinted = ann.act(again["id"], "hint").json()
    assert hinted["hint"]["pair"] and hinted["run"]["hints"] == 1
    assert ann.act(again["id"], "safety").status_code == 200


def test_the_way_through_opens_when_the_day_closes(today, clock):
    ann = member("ann")
    run = ann.start(KEY).json()
    ann.act(run["id"], "give-up")
    today["day"] = days.closes(TODAY)
    opened = ann.act(run["id"], "way")
    assert opened.status_code == 200 and len(opened.json()["way"]["pairs"]) == 72
    assert opened.json()["run"]["way_opens"] is None


def test_the_day_it_opens_is_in_the_players_language_and_digits(today, clock):
    ann = member("ann")
    ann.client.cookies["django_language"] = "ne"
    run = ann.start(KEY).json()
    message = ann.act(run["id"], "way").json()["message"]
    assert "३१" in message and "२०२६" in message and "31" not in message


def test_other_boards_still_show_a_way_through(today, clock):
    ann = member("ann")
    for key in ("free:small", "level:1"):
        run = ann.start(key).json()
        assert run["way_opens"] is None
        assert ann.act(run["id"], "way").status_code == 200


def test_a_paced_replay_from_a_second_account_does_not_reach_the_board(today, clock):
    ann, bob = member("ann"), member("bob")
    gave_up = ann.start(KEY).json()
    ann.act(gave_up["id"], "give-up")
    assert ann.act(gave_up["id"], "way").status_code == 403
    # The witness straight from the server's own store, as a leak would give.
    witness = DailyDeal.objects.get(date=TODAY, layout_slug="tall-turtle").witness
    run = bob.start(KEY).json()
    done = replay(bob, run, witness, clock, 260)
    assert (done["status"], done["clean"], done["too_fast"]) == ("won", True, False)
    assert done["review"] == "waiting" and done["new_best"] is False
    assert done["elapsed_ms"] == 260 * len(witness)
    assert leaderboard(KEY) == []
    # Bob sees his time waiting; nobody sees it on the board.
    page = bob.client.get(f"/daily/{TODAY}/").content.decode()
    assert "0:18 waits for review" in page
    assert "bob" not in member("cy").client.get(f"/daily/{TODAY}/").content.decode()
    assert not BestTime.objects.filter(board_key=KEY).exists()


def test_a_clear_at_a_persons_pace_ranks_at_once(today, clock):
    cy = member("cy")
    witness = DailyDeal.objects.filter(layout_slug="tall-turtle")
    run = cy.start(KEY).json()
    pairs = witness.get(date=TODAY).witness
    done = replay(cy, run, pairs, clock, QUICK_PLAYER_PAIR_MS + 300)
    assert done["review"] is None and done["new_best"] is True
    assert [e.name for e in leaderboard(KEY)] == ["cy"]


def admin_client():
    user = get_user_model().objects.create_superuser("root", password="pw-root-9x")
    me = Browser()
    me.client.force_login(user)
    return me


def waiting_replay(today, clock) -> tuple[Browser, dict]:
    bob = member("bob")
    witness = DailyDeal.objects.filter(layout_slug="tall-turtle")
    run = bob.start(KEY).json()
    return bob, replay(bob, run, witness.get(date=TODAY).witness, clock, 400)


@pytest.mark.parametrize("verdict", ["approve", "reject"])
def test_an_admin_reviews_the_waiting_times(today, clock, verdict):
    bob, done = waiting_replay(today, clock)
    admin = admin_client()
    listing = admin.client.get("/admin/games/timeforreview/").content.decode()
    assert done["id"] in listing
    run = Run.objects.get(public_id=done["id"])
    page = admin.client.get(f"/admin/games/timeforreview/{run.pk}/change/")
    # Each pair's time, as the server stamped it.
    assert page.status_code == 200 and "400, 400, 400" in page.content.decode()
    answer = admin.form(
        "/admin/games/timeforreview/",
        {"action": verdict, "_selected_action": [run.pk], "index": 0},
    )
    assert answer.status_code == 302
    run.refresh_from_db()
    assert run.review == ("approved" if verdict == "approve" else "rejected")
    ranked = [e.name for e in leaderboard(KEY)]
    assert ranked == (["bob"] if verdict == "approve" else [])
    assert BestTime.objects.filter(run=run).exists() == (verdict == "approve")
    listing = admin.client.get("/admin/games/timeforreview/").content.decode()
    assert done["id"] not in listing


def test_the_quick_player_is_the_hard_bot(today):
    """games.pace's model and the hard bot's pace stay in step."""
    from rooms.bots import HARD, PACES

    low, high = PACES[HARD].think_ms
    assert (low + high) // 2 == QUICK_PLAYER_PAIR_MS
    assert PACES[HARD].look_per_mille == 0


def test_a_closed_daily_gives_its_way_through_to_a_run_that_outlived_it(today, clock):
    ann = member("ann")
    run = ann.start(KEY).json()
    today["day"] = TODAY + timedelta(days=days.OPEN_DAYS)
    assert ann.get(run["id"]).json()["way_opens"] is None
