"""The watch page during a race: the featured racer's pile in 3D above every
racer's small pile with their matches, following the race to its final
standings; the watcher takes no seat."""

import pytest

from rooms import actions
from rooms.models import Room
from tests.browser.test_room_together import wait_for
from tests.room_helpers import person, solution

pytestmark = pytest.mark.browser


def test_a_watch_page_follows_a_race(
    open_page,
    rooms_server,
    artifacts,
):
    ann, bob = person("Ann"), person("Bob")
    room = actions.create_room(ann, "Ann")
    actions.join_room(room.code, bob, "Bob")
    actions.start_game(room.code, ann)
    actions.deal_round(room.code, ann, "race", "small", 0)
    rnd = Room.objects.get(pk=room.pk).current_round
    rnd.running_since = rnd.dealt_at  # no wait for the pile to build
    rnd.save()
    pairs = solution(room)

    tv = open_page(f"{rooms_server}/watch?code={room.code}")
    wait_for(tv, "document.querySelector('#watch').dataset.mode === 'race'")
    wait_for(tv, "document.querySelectorAll('#w-racers li').length === 2")
    for move, pair in enumerate(pairs[:3]):
        actions.take_pair(room.code, bob, *pair, move)
    actions.take_pair(room.code, ann, *pairs[0], 0)
    wait_for(
        tv,
        "document.querySelector('#w-racers li[data-seat=\"1\"]')"
        "?.dataset.matches === '3'",
    )
    # Bob leads and is still playing: his pile is the one in 3D.
    wait_for(tv, "document.querySelector('#w-leader').textContent.startsWith('Bob')")
    assert Room.objects.get(pk=room.pk).members.count() == 2
    wait_for(tv, "window.tilesWatch.view.scene.idle === true")
    tv.screenshot(path=artifacts / "watch-race.png")

    for move, pair in enumerate(pairs[3:], start=3):
        actions.take_pair(room.code, bob, *pair, move)
    # Bob has cleared: the best placed still playing is Ann.
    wait_for(tv, "document.querySelector('#w-leader').textContent.startsWith('Ann')")
    for move, pair in enumerate(pairs[1:], start=1):
        actions.take_pair(room.code, ann, *pair, move)
    wait_for(tv, "!document.querySelector('#w-final').hidden")
    final = tv.inner_text("#w-final-list")
    assert final.startswith("1. Bob") and "2. Ann" in final
    wait_for(tv, "window.tilesWatch.view.scene.idle === true")
    tv.screenshot(path=artifacts / "watch-race-final.png")
