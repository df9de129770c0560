"""A room's first deal shows about as fast as a later one (issue 27, point 6).

A phone once took 8 s to show the first deal onto a room page that had drawn
no pile yet, and 0.3 s for the next. The host deals three times on one page;
each time is from the tap on Deal to the first frame that shows the new
pile's tiles. The page's main thread runs 4 times slower than this machine's
(CDP CPU throttling), as a modest phone's does. The room makes its 3D view
while it waits (scene.js prepareScene).
"""

import contextlib
import statistics

import pytest

from games.errors import Conflict
from rooms import actions
from rooms.models import Room
from tests.browser.screens import LAPTOP, clear, off_loop, open_as, wait_for
from tests.room_helpers import person

pytestmark = pytest.mark.browser

# A first deal may cost what its script's first run costs, not the building
# of the 3D view nor the race screen's first showing. On this 4x slower
# page, with no 3D view made ahead, the median over fresh pages of a first
# deal over a later one was 5.1; with the view made ahead off the page 1.9
# to 2.7; made in the race screen laid out unseen 1.5 to 2.4 (the machine
# loaded 2 to 10 for its 2 cores).
MOST_RATIO = 3
THROTTLE = 4
# One page's deals vary with what else the machine does: the median of the
# ratios on this many fresh pages.
PAGES = 3

# Tap Deal; resolve with the ms until a frame shows the new pile's tiles.
# The scene's frame that draws them runs after the deal's state arrived: a
# new pile's tiles drop in from 120 ms on, so the first frames after the
# deal show none, and a frame counted after the deal with tiles showing is
# the new pile's.
DEAL_AND_TIME = """() => new Promise((resolve) => {
  const race = window.tilesRoom.race;
  const before = race.number;
  let frames = -1;
  const t0 = performance.now();
  document.getElementById("deal").click();
  const tick = () => {
    const scene = race.scene;
    if (scene && race.number !== before) {
      if (frames < 0) frames = scene.frameCount;
      else if (scene.frameCount > frames && scene.drawn > 0) {
        return resolve(performance.now() - t0);
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


# Resolve once the page's main thread has been idle a while (three idle
# periods in a row of the longest kind): a host waiting for friends to join
# leaves it so before tapping Deal.
QUIET = """() => new Promise((resolve) => {
  let calm = 0;
  const check = (deadline) => {
    calm = deadline.timeRemaining() >= 40 ? calm + 1 : 0;
    if (calm >= 3) resolve();
    else requestIdleCallback(check);
  };
  requestIdleCallback(check);
})"""


def host_waiting_to_deal():
    """A started room with a bot, no deal yet: the host's deal form shows."""
    ann = person("Ann")
    room = actions.create_room(ann, "Ann")
    actions.add_bot(room.code, ann, "easy")
    actions.start_game(room.code, ann)
    return room, ann


def end_the_race(code: str, host) -> None:
    """The host clears the pile and ends the race for everyone (unless the
    bot was done first): the deal form again."""
    clear(Room.objects.get(code=code), host)
    with contextlib.suppress(Conflict):
        off_loop(actions.end_now, code, host)


def deal(page) -> float:
    wait_for(page, "!document.getElementById('deal-form').hidden")
    page.select_option("#deal-form select[name=pile]", "small")
    page.evaluate(QUIET)
    return page.evaluate(DEAL_AND_TIME)


def first_deal_ratio(chromium, pages, rooms_server) -> float:
    """On a fresh page, the first deal's time over a later one's (the
    median of two)."""
    room, ann = off_loop(host_waiting_to_deal)
    page = open_as(chromium, pages, rooms_server, ann, f"/r/{room.code}", LAPTOP)
    wait_for(page, "document.querySelector('#room').dataset.status === 'game'")
    page.context.new_cdp_session(page).send(
        "Emulation.setCPUThrottlingRate", {"rate": THROTTLE}
    )
    times = [deal(page)]
    for _ in range(2):
        end_the_race(room.code, ann)
        times.append(deal(page))
    later = statistics.median(times[1:])
    print(f"first deal {times[0]:.0f} ms, later {later:.0f} ms")
    page.close()
    return times[0] / later


def test_the_first_deal_shows_as_fast_as_a_later_one(chromium, pages, rooms_server):
    # A busy machine can slow any one deal: the median of fresh pages.
    ratios = [first_deal_ratio(chromium, pages, rooms_server) for _ in range(PAGES)]
    print("ratios", " ".join(f"{r:.2f}" for r in ratios))
    assert statistics.median(ratios) <= MOST_RATIO, ratios
