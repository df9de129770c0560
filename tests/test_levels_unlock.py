"""Levels unlock in order, per account (per device for guests); any open
level can be replayed; a locked level is refused with a clear error."""

import pytest

from accounts.models import Player
from dailies.standings import unlocked_level
from games import boards
from tests.run_helpers import Browser, FakeClock, play_through

pytestmark = pytest.mark.django_db


def test_a_new_player_may_play_level_1_only():
    me = Player.objects.create()
    assert unlocked_level(me) == 1
    assert unlocked_level(None) == 1
    boards.deal_for("level:1", me)
    with pytest.raises(boards.BoardLocked, match="level 2 is locked"):
        boards.deal_for("level:2", me)


def test_clearing_a_level_opens_the_next_and_it_can_be_replayed(monkeypatch):
    clock = FakeClock(monkeypatch)
    me = Browser()
    refused = me.start("level:2")
    assert refused.status_code == 403
    assert refused.json()["error"] == "locked"
    assert "level 2 is locked: clear level 1 first" in refused.json()["message"]
    run = me.start("level:1").json()
    play_through(me, run, clock)
    player = Player.objects.get()
    assert unlocked_level(player) == 2
    assert me.start("level:2").status_code == 201
    assert me.start("level:3").status_code == 403
    # Level 1 again: a fresh run on the identical board.
    again = me.start("level:1").json()
    assert again["id"] != run["id"]
    assert again["tiles"] == run["tiles"]


def test_progress_belongs_to_the_player_not_the_board(monkeypatch):
    clock = FakeClock(monkeypatch)
    me, other = Browser(), Browser()
    play_through(me, me.start("level:1").json(), clock)
    assert other.start("level:2").status_code == 403


def test_the_levels_page_shows_100_levels_with_the_locked_ones_locked(
    client, monkeypatch
):
    clock = FakeClock(monkeypatch)
    me = Browser()
    play_through(me, me.start("level:1").json(), clock)
    page = me.client.get("/levels/").content.decode()
    assert page.count('data-level="') == 100
    assert page.count('class="level locked"') == 98
    assert "?board=level%3A1" in page and "?board=level%3A2" in page
    assert "?board=level%3A3" not in page
    fresh = client.get("/levels/").content.decode()
    assert fresh.count('class="level locked"') == 99
