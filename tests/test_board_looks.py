"""The pages round the board (issue 28): the board's looks kept with the
account, a locked level that says which level opens it, and best times
named as people say them on the profile."""

import json

import pytest
from django.contrib.auth import get_user_model

from accounts.models import Player
from games.models import BestTime
from tests.run_helpers import Browser, witness_of

pytestmark = pytest.mark.django_db


def signed_in() -> tuple[Browser, Player]:
    user = get_user_model().objects.create_user("ana", password="green-dragon-42")
    player = Player.objects.create(user=user, display_name="Ana")
    me = Browser()
    me.client.force_login(user)
    return me, player


def test_a_signed_in_players_looks_are_kept_with_the_account():
    me, player = signed_in()
    looks = {"set": "large", "table": "night", "sound": False}
    answer = me.post("/play/api/looks", looks)
    assert answer.status_code == 200 and answer.json()["kept"] == "account"
    player.refresh_from_db()
    assert player.looks == {"set": "large", "table": "night", "sound": False}
    # Another device signed in to the account gets them with the board page.
    page = me.client.get("/play/small/").content.decode()
    script = page.split('<script id="account-looks" type="application/json">')[1]
    assert json.loads(script.split("</script>")[0]) == player.looks


@pytest.mark.parametrize(
    "body",
    [
        {"set": "neon"},
        {"table": "<b>"},
        {"sound": 1},
        {"flat": "yes"},
        {"colour": "red"},
        ["set", "large"],
    ],
)
def test_a_look_the_page_cannot_draw_is_refused_and_nothing_changes(body):
    me, player = signed_in()
    me.post("/play/api/looks", {"set": "traditional"})
    answer = me.post("/play/api/looks", body)
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad-looks"
    player.refresh_from_db()
    assert player.looks == {"set": "traditional"}


def test_a_guests_looks_stay_on_the_device():
    me = Browser()
    me.become_guest()
    answer = me.post("/play/api/looks", {"set": "large"})
    assert answer.json()["kept"] == "device"
    assert Player.objects.get().looks == {}
    assert "account-looks" not in me.client.get("/play/small/").content.decode()


def test_a_locked_level_says_which_level_opens_it(client):
    response = client.get("/play/kite/?board=level:12")
    assert response.status_code == 403
    page = response.content.decode()
    assert "Level 12 is locked" in page
    assert "Clear level 11 to open it" in page
    assert 'href="/levels/"' in page


def test_a_locked_level_in_nepali_counts_in_devanagari(client):
    client.cookies["django_language"] = "ne"
    page = client.get("/play/kite/?board=level:12").content.decode()
    assert "१२" in page and "११" in page


def test_the_profile_names_boards_as_people_say_them():
    me = Browser()
    me.become_guest()
    player = Player.objects.get()
    for key, name in [
        ("daily:2026-12-02:small", "Small"),
        ("level:1", "Small"),
        ("free:turtle", "Turtle"),
    ]:
        BestTime.objects.create(
            player=player,
            board_key=key,
            layout_name=name,
            best_ms=75_400,
            achieved="2026-12-02T09:00:00Z",
        )
    page = me.client.get("/accounts/profile/").content.decode()
    assert "Daily · 2 December · Small" in page
    assert "Level 1 · Small" in page
    assert "Turtle" in page
    assert ">daily:" not in page and ">level:" not in page
    assert "daily:2026" not in page.replace('data-board="daily:2026-12-02:small"', "")


def test_the_home_page_leads_with_the_game_in_play():
    me = Browser()
    assert 'id="continue"' not in me.client.get("/").content.decode()
    run = me.start("free:small").json()
    me.take(run, *witness_of(run["id"])[0])
    page = me.client.get("/").content.decode()
    assert 'id="continue" href="/play/small/"' in page
    assert "Small: 30 tiles left" in page
    # Today's daily is the next card.
    assert page.index('id="continue"') < page.index('class="mode lead" href="/daily/"')
