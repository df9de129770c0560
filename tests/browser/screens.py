"""Seats in a room made on the server, pages opened as those people, and
whether what a page shows lies inside its screen."""

import random
import threading

import pytest
from django.db import connection
from django.utils import timezone

from games.engine.board import Board
from games.engine.deal import generate_deal
from rooms import actions
from rooms.models import Room
from tests.room_helpers import guest_cookie_value, person
from tests.waiting import wait_until

# The screens a room is checked on: a phone upright and on its side (touch),
# and a laptop.
PHONE_UP = {"width": 390, "height": 844}
PHONE_SIDE = {"width": 844, "height": 390}
LAPTOP = {"width": 1366, "height": 768}
SCREENS = {"phone": PHONE_UP, "phone-side": PHONE_SIDE, "laptop": LAPTOP}
WAIT_MS = 20_000


def off_loop(fn, *args):
    """Run `fn` on a thread of its own, as another process would: this one
    runs Playwright's event loop, where publishing to the channel layer
    cannot. Returns what it returned; raises what it raised."""
    result = {}

    def run():
        try:
            result["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - handed back to the test
            result["error"] = e
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]


def room_with(host_name: str, humans: list[str], bots: int, mode: str, pile: str):
    return off_loop(_room_with, host_name, humans, bots, mode, pile)


def _room_with(host_name: str, humans: list[str], bots: int, mode: str, pile: str):
    """A room on its game screen with a deal on: the host, other people and
    bots seated. Returns the room and the people by name."""
    host = person(host_name)
    room = actions.create_room(host, host_name)
    people = {host_name: host}
    for name in humans:
        people[name] = person(name)
        actions.join_room(room.code, people[name], name)
    for i in range(bots):
        actions.add_bot(room.code, host, ("easy", "medium", "hard")[i % 3])
    actions.start_game(room.code, host)
    actions.deal_round(room.code, host, mode, pile, 0)
    return Room.objects.get(pk=room.pk), people


def open_as(chromium, opened, base: str, player, path: str, viewport: dict):
    """`path` opened by `player` (their guest cookie) on `viewport`; a
    phone's screen is a touch screen."""
    touch = viewport["width"] < 900
    context = chromium.new_context(
        viewport=viewport, has_touch=touch, is_mobile=touch, bypass_csp=True
    )
    if player is not None:
        context.add_cookies(
            [{"name": "tiles_player", "value": guest_cookie_value(player), "url": base}]
        )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    opened.append((context, errors))
    page.goto(f"{base}{path}")
    return page


@pytest.fixture
def pages(chromium):
    """The contexts `open_as` opened; closed after the test, failing it on
    any script error on any of their pages."""
    opened = []
    yield opened
    for context, errors in opened:
        context.close()
        assert errors == [], f"script errors on the page: {errors}"


def wait_for(page, script: str, timeout: int = WAIT_MS) -> None:
    page.wait_for_function(script, timeout=timeout)


def outside(page, selector: str) -> list[str]:
    """Each shown element of `selector` that does not lie wholly on screen
    (nothing to scroll to), with its box."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .filter((el) => el.getClientRects().length > 0)
            .map((el) => [el, el.getBoundingClientRect()])
            .filter(([, r]) => r.left < -1 || r.top < -1
                || r.right > innerWidth + 1 || r.bottom > innerHeight + 1)
            .map(([el, r]) => `${el.tagName}#${el.id}.${el.className}`
                + ` [${r.left | 0}, ${r.top | 0}, ${r.right | 0}, ${r.bottom | 0}]`)""",
        selector,
    )


def shown_count(page, selector: str) -> int:
    return page.evaluate(
        "(s) => [...document.querySelectorAll(s)]"
        ".filter((el) => el.getClientRects().length > 0).length",
        selector,
    )


# The corners of every standing tile's top, as drawn, outside the element
# that frames the canvas: none on a pile that fits.
TILES_OUTSIDE = """([scenePath, frame]) => {
  const scene = scenePath.split('.').reduce((o, k) => o[k], window);
  const box = document.querySelector(frame).getBoundingClientRect();
  const out = [];
  for (let i = 0; i < scene.n; i++) {
    if (!scene.shown[i]) continue;
    for (const [u, v] of [[-1.2, -1.2], [1.2, -1.2], [-1.2, 1.2], [1.2, 1.2]]) {
      const p = scene.screenPoint(i, u, v);
      if (p.x < box.left || p.x > box.right || p.y < box.top || p.y > box.bottom) {
        out.push([i, Math.round(p.x), Math.round(p.y)]);
      }
    }
  }
  return out;
}"""


def tiles_outside(page, scene_path: str, frame: str) -> list:
    return page.evaluate(TILES_OUTSIDE, [scene_path, frame])


def play_to_a_dead_end(room: Room, player, seed: int = 3) -> int:
    return off_loop(_play_to_a_dead_end, room, player, seed)


def wait_built(room: Room):
    """The room's round once its pile is built and its clock has started
    (games.play.BUILD_DELAY_MS after the deal), as a player's first move."""
    rnd = Room.objects.get(pk=room.pk).current_round
    wait_until(
        lambda: rnd.running_since is not None and rnd.running_since <= timezone.now(),
        "the clock start",
    )
    return rnd


def _play_to_a_dead_end(room: Room, player, seed: int) -> int:
    """Take legal pairs on the server for `player` until no two free tiles
    match (random play on a Turtle soon gets there); the pairs taken."""
    wait_built(room)
    line = dead_end_line(room, seed)
    for move, pair in enumerate(line):
        actions.take_pair(room.code, player, *pair, move)
    return len(line)


def dead_end_line(room: Room, seed: int) -> list[tuple[int, int]]:
    """Pairs that, taken in order from the room's deal, leave no two free
    tiles that match (random play on a Turtle soon gets there)."""
    rnd = Room.objects.get(pk=room.pk).current_round
    deal = generate_deal(rnd.layout(), rnd.seed)
    rng = random.Random(seed)
    for _ in range(80):
        board = Board(deal.layout, deal.faces)
        line = []
        while board.free_pairs():
            pair = rng.choice(board.free_pairs())
            board.take(*pair)
            line.append(pair)
        if not board.cleared:
            return line
    raise AssertionError("no dead end found")


def clear(room: Room, player) -> None:
    off_loop(_clear, room, player)


def _clear(room: Room, player) -> None:
    """`player` clears their pile on the server (the deal's clearing order)."""
    rnd = wait_built(room)
    for move, pair in enumerate(generate_deal(rnd.layout(), rnd.seed).solution):
        actions.take_pair(room.code, player, *pair, move)
