"""Fair best times (docs/fair-play.md): a clear counts for best times and
leaderboards only at a pace a person can play, judged from the server's
own clock; a clear sent faster is kept, marked and shown to admins."""

import pytest

from accounts.models import Player
from dailies.standings import leaderboard
from games import pace
from games.models import BestTime, Run
from tests.run_helpers import Browser, FakeClock, witness_of

pytestmark = pytest.mark.django_db

BOARD = "free:small"


@pytest.fixture
def signed_in(django_user_model, monkeypatch):
    """A registered player's browser on a clock the test moves."""
    clock = FakeClock(monkeypatch)
    me = Browser()
    user = django_user_model.objects.create_user("ana", password="pw-long-enough")
    Player.objects.create(user=user, display_name="ana")
    me.client.force_login(user)
    return me, clock


def clear(me: Browser, clock: FakeClock, gaps_ms) -> dict:
    """Clear a new deal along its witness, each pair `gaps_ms` after the
    one before (one gap per pair, the first from the clock's start)."""
    run = me.start(BOARD).json()
    clock.advance(run["starts_in_ms"])
    pairs = witness_of(run["id"])
    for (a, b), gap in zip(pairs, gaps_ms(len(pairs)), strict=True):
        clock.advance(gap)
        response = me.take(run, a, b)
        assert response.status_code == 200, response.json()
        run = response.json()
    assert run["status"] == "won"
    return run


def test_a_clearing_replayed_at_machine_speed_sets_no_best_time(signed_in):
    me, clock = signed_in
    won = clear(me, clock, lambda n: [20] * n)
    assert won["too_fast"] and not won["new_best"] and won["best_ms"] is None
    assert not BestTime.objects.exists()
    assert leaderboard(BOARD) == []
    assert Run.objects.get(public_id=won["id"]).too_fast  # kept, marked


def test_waiting_first_then_replaying_at_once_is_still_too_fast(signed_in):
    me, clock = signed_in
    won = clear(me, clock, lambda n: [60_000] + [5] * (n - 1))
    assert won["too_fast"] and won["elapsed_ms"] > 60_000
    assert not BestTime.objects.exists() and leaderboard(BOARD) == []


def test_a_quick_but_human_clear_is_ranked(signed_in):
    """Twice as fast as the hard bot at its quickest, with two pairs in
    ten taken at once (seen while taking the one before)."""
    me, clock = signed_in
    won = clear(me, clock, lambda n: [60 if k % 5 == 4 else 400 for k in range(n)])
    assert not won["too_fast"] and won["new_best"]
    assert BestTime.objects.get().best_ms == won["elapsed_ms"]
    ((entry),) = leaderboard(BOARD)
    assert (entry.name, entry.ms) == ("ana", won["elapsed_ms"])


def test_an_undone_pair_takes_its_time_with_it(signed_in):
    me, clock = signed_in
    run = me.start(BOARD).json()
    (a, b), *_ = witness_of(run["id"])
    clock.advance(run["starts_in_ms"] + 1000)
    run = me.take(run, a, b).json()
    run = me.act(run["id"], "undo", {"move": 1}).json()
    assert Run.objects.get(public_id=run["id"]).move_ms == []


def test_too_fast_clears_are_listed_for_admins(signed_in, admin_client):
    me, clock = signed_in
    won = clear(me, clock, lambda n: [20] * n)
    page = admin_client.get("/admin/games/run/?too_fast__exact=1")
    assert page.status_code == 200 and won["id"].encode() in page.content
    assert b"Too fast" in admin_client.get("/admin/games/run/").content


@pytest.mark.parametrize(
    ("move_ms", "human"),
    [
        ([], True),
        ([300, 600, 900, 1200, 1500], True),
        ([300, 400, 700, 1000, 1300, 1600, 1900, 2200, 2500, 2800], True),
        ([100, 200, 900, 1200, 1500], False),
        ([60_000 + k for k in range(20)], False),
    ],
)
def test_the_pace_rule(move_ms, human):
    assert pace.human_paced(move_ms) is human
