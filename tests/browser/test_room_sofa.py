"""Friends on the sofa (issue 27): the pile covered while paused, on the
phones and the TV, with the pauses left on the button; the race bar on a
390 px phone with a time limit, and its result after the race; names that
are not cut off; the invite as a QR code on the room page and the TV's
waiting screen, with who is in; a stuck Together pile laid out again says
so. Screenshots of each go to tests/artifacts/."""

import pytest

from rooms import actions
from rooms.models import Room
from tests.browser.screens import (
    LAPTOP,
    PHONE_SIDE,
    PHONE_UP,
    clear,
    dead_end_line,
    off_loop,
    open_as,
    outside,
    room_with,
    wait_built,
    wait_for,
)
from tests.room_helpers import person

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
# Every element of the page that shows: none may reach past the screen's
# sides (the page would grow wider than the phone).
WIDER = """() => {
  // The part of an element that shows: clipped by each ancestor that hides
  // its overflow (a row of chips slides its oldest out of sight).
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    let [l, rt] = [r.left, r.right];
    for (let p = el.parentElement; p; p = p.parentElement) {
      if (getComputedStyle(p).overflowX === 'visible') continue;
      const b = p.getBoundingClientRect();
      [l, rt] = [Math.max(l, b.left), Math.min(rt, b.right)];
    }
    return [l, rt];
  };
  return [...document.querySelectorAll('body *')]
    .filter((el) => el.getClientRects().length > 0)
    .filter((el) => !el.closest('.visually-hidden'))  // clipped to a pixel
    .map((el) => [el, shown(el)])
    .filter(([, [l, r]]) => r > l && (l < -1 || r > innerWidth + 1))
    .map(([el, [l, r]]) => `${el.tagName}#${el.id}.${el.className}`
      + ` [${l | 0}, ${r | 0}]`);
}"""
# Whether a pile's canvas draws anything: covered, it is not shown at all.
DRAWN = "(sel) => getComputedStyle(document.querySelector(sel + ' canvas')).visibility"
# The elements of `selector` whose text is cut (wider or taller than shown).
CUT = """(sel) => [...document.querySelectorAll(sel)]
  .filter((el) => el.getClientRects().length > 0)
  .filter((el) => el.scrollWidth > el.clientWidth + 1
    || el.scrollHeight > el.clientHeight + 1)
  .map((el) => el.textContent)"""


def wider(page) -> list[str]:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.evaluate(
        "innerWidth"
    )
    return page.evaluate(WIDER)


def _timed_race(names: list[str], bots: int, limit: int, pile: str = "big"):
    host = person(names[0])
    room = actions.create_room(host, names[0])
    people = {names[0]: host}
    for name in names[1:]:
        people[name] = person(name)
        actions.join_room(room.code, people[name], name)
    for i in range(bots):
        actions.add_bot(room.code, host, ("easy", "medium", "hard")[i % 3])
    actions.start_game(room.code, host)
    actions.deal_round(room.code, host, "race", pile, limit)
    return Room.objects.get(pk=room.pk), people


@pytest.mark.parametrize("mode", ["together", "race"])
def test_a_paused_pile_is_covered_on_the_phone_and_the_tv(
    mode, chromium, pages, rooms_server, artifacts
):
    room, people = room_with("Ann", ["Bob"], 1, mode, "big")
    ann = open_as(
        chromium, pages, rooms_server, people["Ann"], f"/r/{room.code}", PHONE_UP
    )
    tv = open_as(chromium, pages, rooms_server, None, f"/watch?code={room.code}", TV)
    pile = "#t-pile" if mode == "together" else "#board"
    together = mode == "together"
    pause, resume = ("#t-pause", "#t-resume") if together else ("#pause", "#resume")
    scene = "together" if mode == "together" else "race"
    wait_for(ann, f"window.tilesRoom.{scene}.scene?.idle === true")
    wait_for(tv, "window.tilesWatch.view.scene?.idle === true")
    assert ann.evaluate(DRAWN, pile) == "visible"
    assert ann.get_attribute(pause, "aria-label") == "Pause: 3 left"
    for left in (2, 1, 0):
        ann.click(pause)
        wait_for(ann, "window.tilesRoom.conn.state.round.paused === true")
        wait_for(tv, "window.tilesWatch.conn.state.round?.paused === true")
        # Nothing of the pile shows, on the phone or on the TV.
        assert ann.evaluate(DRAWN, pile) == "hidden"
        assert tv.evaluate(DRAWN, "#w-pile") == "hidden"
        assert ann.locator(f"{pile} ~ .pile-cover").is_visible()
        assert tv.locator("#w-paused").is_visible()
        if left == 2:
            ann.screenshot(path=artifacts / f"room-{mode}-paused-phone.png")
            tv.screenshot(path=artifacts / f"watch-{mode}-paused-1920x1080.png")
            ann.set_viewport_size(LAPTOP)
            tv.set_viewport_size(LAPTOP)
            ann.wait_for_timeout(300)
            assert ann.evaluate(DRAWN, pile) == "hidden"
            ann.screenshot(path=artifacts / f"room-{mode}-paused-1366.png")
            tv.screenshot(path=artifacts / f"watch-{mode}-paused-1366x768.png")
            ann.set_viewport_size(PHONE_UP)
        ann.click(resume)
        wait_for(ann, "window.tilesRoom.conn.state.round.paused === false")
        assert ann.evaluate(DRAWN, pile) == "visible"
        assert ann.inner_text(f"{pause} .pauses-left") == str(left)
    # None left: the button says so and cannot be pressed.
    assert ann.get_attribute(pause, "aria-label") == "No pauses left this deal"
    assert ann.locator(pause).is_disabled()
    ann.keyboard.press("p")  # the key finds no pause to press either
    ann.wait_for_timeout(300)
    assert not Room.objects.get(pk=room.pk).current_round.paused


@pytest.mark.parametrize("screen", ["phone", "phone-side", "laptop"])
def test_the_race_bar_fits_a_phone_with_a_time_limit_and_ends_with_the_result(
    screen, chromium, pages, rooms_server, artifacts
):
    size = {"phone": PHONE_UP, "phone-side": PHONE_SIDE, "laptop": LAPTOP}[screen]
    long = "Annapurna Shrestha-Basnet"
    room, people = off_loop(_timed_race, [long, "Bob", "Cat"], 2, 5, "small")
    page = open_as(chromium, pages, rooms_server, people[long], f"/r/{room.code}", size)
    wait_for(page, "document.querySelector('#limit').textContent.endsWith('left')")
    wait_for(page, "window.tilesRoom.race.scene?.idle === true")
    assert wider(page) == []
    for what in ("#race-bar", "#race-bar *", "#strip li", ".room-head *"):
        assert outside(page, what) == [], what
    # Every name and count whole, however long.
    assert page.evaluate(CUT, "#strip .strip-name, #strip .strip-matches") == []
    page.screenshot(path=artifacts / f"room-race-limit-{screen}.png")

    clear(room, people[long])
    wait_for(page, "!document.querySelector('#standings').hidden")
    page.wait_for_timeout(600)
    assert page.inner_text("#limit") == "cleared"
    assert "left" not in page.inner_text("#race-bar")
    assert wider(page) == []
    assert page.evaluate(CUT, "#strip .strip-name, #strip .strip-matches") == []
    page.screenshot(path=artifacts / f"room-race-limit-done-{screen}.png")


@pytest.mark.parametrize("size", [PHONE_UP, LAPTOP])
def test_the_room_page_shows_the_invite_as_a_qr_code(
    size, chromium, pages, rooms_server, artifacts
):
    ann = person("Ann")
    room = off_loop(actions.create_room, ann, "Ann")
    page = open_as(chromium, pages, rooms_server, ann, f"/r/{room.code}", size)
    wait_for(page, "document.querySelector('#room').dataset.status === 'lobby'")
    qr = page.get_by_role("img", name="QR code to join")
    assert qr.is_visible()
    box = qr.bounding_box()
    assert box["width"] >= 100 and box["height"] >= 100
    assert outside(page, "#invite-qr, #invite, #share-invite, .room-code") == []
    assert wider(page) == []
    page.screenshot(path=artifacts / f"room-lobby-qr-{size['width']}.png")


@pytest.mark.parametrize("size", [LAPTOP, TV])
def test_the_tvs_waiting_screen_shows_who_is_in_and_how_to_join(
    size, chromium, pages, rooms_server, artifacts
):
    ann, bob = person("Ann"), person("Bob")
    room = off_loop(actions.create_room, ann, "Ann")
    off_loop(actions.join_room, room.code, bob, "Bob")
    tv = open_as(chromium, pages, rooms_server, None, f"/watch?code={room.code}", size)
    wait_for(tv, "document.querySelectorAll('#w-people li').length === 2")
    assert tv.inner_text("#w-people") == "Ann (host)\nBob"
    assert tv.get_by_role("img", name="QR code to join").is_visible()
    assert room.code in tv.inner_text(".watch-join")
    assert f"/r/{room.code}" in tv.inner_text(".watch-join")
    assert outside(tv, "#w-waiting, #w-waiting *") == []
    name = f"{size['width']}x{size['height']}"
    tv.screenshot(path=artifacts / f"watch-waiting-{name}.png")


def test_a_removed_player_is_told_why_and_stays_out_until_the_host_opens(
    chromium, pages, rooms_server, artifacts
):
    room, people = room_with("Ann", ["Bob"], 0, "race", "small")
    url = f"/r/{room.code}"
    ann = open_as(chromium, pages, rooms_server, people["Ann"], url, LAPTOP)
    bob = open_as(chromium, pages, rooms_server, people["Bob"], url, PHONE_UP)
    wait_for(bob, "window.tilesRoom.conn.state !== null")
    ann.click("#host-manners summary")
    ann.click("#manners-people button")
    # Remove asks first; keeping them changes nothing.
    assert ann.locator("#remove-confirm").is_visible()
    assert ann.inner_text("#remove-title") == "Remove Bob from the room?"
    ann.screenshot(path=artifacts / "room-remove-confirm-1366.png")
    ann.keyboard.press("Escape")
    assert Room.objects.get(pk=room.pk).members.count() == 2
    ann.click("#manners-people button")
    ann.click("#remove-yes")
    bob.wait_for_selector("#join-refused")
    assert bob.inner_text("#join-refused") == "The host removed you from this room."
    assert bob.locator("#join-form").count() == 0
    assert wider(bob) == []
    bob.screenshot(path=artifacts / "room-removed-phone.png")
    bob.set_viewport_size(LAPTOP)
    bob.screenshot(path=artifacts / "room-removed-1366.png")
    # A fresh cookie is a newcomer at a room the removal locked.
    fresh = open_as(chromium, pages, rooms_server, None, url, PHONE_UP)
    assert "locked" in fresh.inner_text("#join-refused")
    assert fresh.locator("#join-form").count() == 0
    fresh.screenshot(path=artifacts / "room-locked-link-phone.png")
    # The host opens the room: Bob may come back.
    wait_for(ann, "window.tilesRoom.conn.state.room.locked === true")
    ann.uncheck("#lock-room")
    wait_for(ann, "window.tilesRoom.conn.state.room.locked === false")
    bob.reload()
    bob.fill("#join-form input[name=name]", "Bob")
    bob.click("#join-form button[type=submit]")
    wait_for(bob, "document.querySelector('#room')?.dataset.conn === 'online'")


def _play_together(room: Room, people: dict, line: list[tuple[int, int]]) -> str:
    """Take `line`'s pairs on the shared pile, each by whoever's turn it is;
    the name of the player whose pair left the pile stuck."""
    wait_built(room)
    by_seat = {m.seat: m.player for m in Room.objects.get(pk=room.pk).members.all()}
    names = {p.pk: name for name, p in people.items()}
    for pair in line:
        state = Room.objects.get(pk=room.pk).current_round.together_state()
        actions.take_pair(room.code, by_seat[state.turn_seat], *pair, 0)
    return names[by_seat[state.turn_seat].pk]


def test_a_stuck_together_pile_laid_out_again_says_so(
    chromium, pages, rooms_server, artifacts
):
    room, people = room_with("Ann", ["Bob"], 0, "together", "big")
    ann = open_as(
        chromium, pages, rooms_server, people["Ann"], f"/r/{room.code}", PHONE_UP
    )
    wait_for(ann, "window.tilesRoom.together.scene?.idle === true")
    line = off_loop(dead_end_line, room, 5)
    who = off_loop(_play_together, room, people, line)
    state = Room.objects.get(pk=room.pk).current_round.together_state()
    assert state.relays == 1
    penalty = state.moves[-1].penalty
    wait_for(ann, "document.querySelector('#t-message').textContent !== ''")
    expected = f"No pairs left: the pile was laid out again, −{penalty} for {who}"
    assert ann.inner_text("#t-message") == (
        expected if penalty else "No pairs left: the pile was laid out again."
    )
    # Many pairs taken: each card's row of chips stays inside the card,
    # and shows the latest pair whole.
    assert outside(ann, "#t-strip li, #t-strip .seat-taken") == []
    rows = ann.evaluate(
        """() => [...document.querySelectorAll('#t-strip li')].map((li) => {
          const card = li.getBoundingClientRect();
          const row = li.querySelector('.seat-taken').getBoundingClientRect();
          const last = li.querySelector('.seat-taken .face-chip:last-child');
          const r = last?.getBoundingClientRect();
          const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1
            && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
          return [li.querySelectorAll('.face-chip').length, inside(row, card),
                  !r || inside(r, row)];
        })"""
    )
    assert max(n for n, _, _ in rows) > 11  # more than a phone card's row holds
    assert all(row and last for _, row, last in rows), rows
    assert wider(ann) == []
    ann.screenshot(path=artifacts / "room-together-relaid-phone.png")
    ann.set_viewport_size(LAPTOP)
    ann.wait_for_timeout(300)
    assert outside(ann, "#t-strip li, #t-message") == []
    ann.screenshot(path=artifacts / "room-together-relaid-1366.png")
