"""Two web hosts' timers sharing the bots of many rooms (issue 29, point 5).

The deployment of tests/test_hosts.py (network namespaces: a data host, two
web hosts each running daphne and the timer with the units' commands, nginx
on an edge, a client host): ROOMS races on the Big pile, each with one or
two people playing through nginx at a person's pace and three bots, which
only the timers move. Both timers run for BOTH_S (measured after WARM_S),
then web1 is killed (kill -9, daphne and timer) and web2's timer carries
every room for ALONE_S.

What happened is read from the data host, not from the servers' own
figures: a trigger the test adds to the rooms table records, as each
transaction that moved a room commits, the room's new version, its wake_at
before (when the move was due) and the process that wrote it (libpq's
PGAPPNAME, set per unit). Asserted:

- both timers moved rooms while both ran;
- every bot is on time: a timer's move is stored (committed) under
  LATE_P99_MS after it was due at the 99th percentile, and the people in
  the room see it under SEEN_P99_MS;
- no room is moved twice: each room's events are numbered 1, 2, 3... with
  no gap; its versions only grow in the order their moves committed; no
  second writer of a version was even tried (PostgreSQL logged no error)
  and no timer failed a room; no bot took a pair twice, and each bot's
  moves are at least its least think time (rooms/bots.py) apart;
- with web1 killed, web2's timer moves every room on, the first of each
  no later than TAKEOVER_S after it was due, and no room is left overdue.
"""

import asyncio
import json
import os
import random
import shutil
import statistics
import time
from collections import defaultdict
from pathlib import Path

import pytest

from tests import test_hosts
from tests.deployment import (
    SITE,
    DataHost,
    Edge,
    WebHost,
    temporary_folder,
    web_hosts,
)
from tests.page_client import Page, all_online
from tests.seat_client import clock_started
from tests.services import ROOT

# The same five hosts as tests/test_hosts.py, made and removed the same way.
network = test_hosts.network

ROOMS = 10
BOTS = ("hard", "hard", "medium")  # three: rooms.seats.MAX_BOTS
PACE_S = 1.5  # a person's pair, give or take 30 %
# Before measuring: the people's pages connect, and each process meets its
# first rooms (statements prepared, layouts loaded) while their bots start.
WARM_S = 4.0
BOTH_S = 20.0
ALONE_S = 10.0
# Issue 29: every bot on time means the timer's lateness p99 under 100 ms.
LATE_P99_MS = 100.0
# Seeing a move adds the publish through Redis, daphne and nginx.
SEEN_P99_MS = 250.0
# kill -9 closes the dead timer's sockets at once, so PostgreSQL ends its
# sessions and frees any room it held in a transaction; web2's timer looks
# every 50 ms. A second is that plus the spike of web1's people reconnecting
# to web2 on this shared two-core machine. (A host cut off the network
# instead holds its rooms until idle_in_transaction_session_timeout, 10 s.)
TAKEOVER_S = 1.0
TIMERS = ("timers web1", "timers web2")
# A COMMIT the killed timer sent may still finish in its backend just after.
LAST_COMMIT_S = 0.5

WATCH = """
from django.db import connection
from rooms.models import Room
table = connection.ops.quote_name(Room._meta.db_table)
with connection.cursor() as cursor:
    cursor.execute(
        "CREATE TABLE moved (room_id bigint, version bigint, due timestamptz,"
        " at timestamptz, app text)"
    )
    cursor.execute(
        "CREATE FUNCTION moved() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " INSERT INTO moved VALUES (NEW.id, NEW.version, OLD.wake_at,"
        " clock_timestamp(), current_setting('application_name'));"
        " RETURN NULL; END $$"
    )
    # Deferred: it runs as the transaction commits, so `at` is when the
    # move was stored.
    cursor.execute(
        f"CREATE CONSTRAINT TRIGGER moved AFTER UPDATE ON {table}"
        " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW"
        " WHEN (NEW.version <> OLD.version) EXECUTE FUNCTION moved()"
    )
"""
SEAT = """
import json
from rooms import actions
from rooms.models import Room
from tests.room_helpers import guest_cookie_value, person
rooms = []
for k in range({rooms}):
    people = [person(f"P{{k}}{{n}}") for n in range(1 + k % 2)]
    host = people[0]
    room = actions.create_room(host, host.display_name)
    for guest in people[1:]:
        actions.join_room(room.code, guest, guest.display_name)
    for level in {bots!r}:
        actions.add_bot(room.code, host, level)
    actions.start_game(room.code, host)
    actions.deal_round(room.code, host, "race", "big", 0)
    rooms.append({{
        "code": room.code,
        "id": room.pk,
        "cookies": {{p.display_name: guest_cookie_value(p) for p in people}},
        "pairs": Room.objects.get(pk=room.pk).current_round.witness,
    }})
print(json.dumps(rooms))
"""
RECORD = """
import json
from django.db import connection, transaction
from rooms import actions, clock
from rooms.bots import PACES
from rooms.models import Event
out = {{"moves": [], "rooms": {{}}}}
with connection.cursor() as cursor:
    cursor.execute(
        "SELECT room_id, version, extract(epoch FROM due),"
        " extract(epoch FROM at), app FROM moved ORDER BY at"
    )
    out["moves"] = [[r, v, float(d or 0), float(a), app] for r, v, d, a, app
                    in cursor.fetchall()]
now = clock.current_time()
for code in {codes!r}:
    # The room's lock (taken by snapshot) held while its events are read:
    # web2's timer still plays, and a move committed between the two reads
    # would look like an event past the room's version.
    with transaction.atomic():
        room, _, _, state = actions.snapshot(code)
        events = Event.objects.filter(room=room).order_by("version")
        versions = list(events.values_list("version", flat=True))
    out["rooms"][code] = {{
        "version": room.version,
        "versions": versions,
        "overdue_ms": (now - room.wake_at).total_seconds() * 1000
        if room.wake_at else None,
        "bots": [
            {{"seat": r.seat, "think_ms": PACES[r.bot].think_ms[0],
              "steps": [[ms, pair] for ms, pair, _ in r.steps]}}
            for r in state.racers if r.bot
        ],
    }}
print(json.dumps(out))
"""


@pytest.mark.services
def test_two_timers_share_the_bots_and_one_takes_over(network):
    folder = temporary_folder()
    data = DataHost(network, folder)
    edge = Edge(network, folder, ["web1", "web2"])
    webs: list[WebHost] = []
    figures: dict = {}
    started = time.monotonic()
    try:
        data.start()
        env = data.env()
        test_hosts.manage(network, "web1", env, "migrate", "--noinput")
        test_hosts.manage(network, "web1", env, "load_layouts")
        webs = web_hosts(network, env, ROOT)
        edge.start()
        # The trigger first: the timers move rooms as soon as they are dealt.
        seat = WATCH + SEAT.format(rooms=ROOMS, bots=BOTS)
        rooms = json.loads(test_hosts.manage(network, "web1", env, "shell", "-c", seat))
        figures["set_up_s"] = round(time.monotonic() - started, 1)

        play = Play(rooms, edge.address, webs[0])
        test_hosts.run_inside(network, "client", play.run())
        record = RECORD.format(codes=[r["code"] for r in rooms])
        kept = json.loads(
            test_hosts.manage(network, "web2", env, "shell", "-c", record)
        )
        Check(rooms, play, kept, figures).all(data, webs)
        figures["whole_s"] = round(time.monotonic() - started, 1)
        figures["load_avg"] = os.getloadavg()  # the machine is shared
    except BaseException:
        figures["load_avg"] = os.getloadavg()
        print(json.dumps(figures, indent=1))
        for web in webs:
            print(web.log())
        print(data.postgres_log()[-3000:])
        raise
    finally:
        for web in webs:
            web.stop()
        edge.stop()
        data.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print("\ntwo timers' figures:", json.dumps(figures, indent=1))


class Play:
    """The people, on the client host: everyone plays for BOTH_S, web1 is
    killed, and they play on for ALONE_S (web1's people back through nginx
    on web2)."""

    def __init__(self, rooms: list[dict], edge: str, victim: WebHost) -> None:
        self.rooms, self.edge, self.victim = rooms, edge, victim
        self.pages: list[Page] = []
        self.refused: list[str] = []
        self.measured_from = self.killed_at = 0.0
        self.cpu_pressure_pct: float | None = None

    async def run(self) -> None:
        for room in self.rooms:
            for name, cookie in room["cookies"].items():
                self.pages.append(Page(name, cookie, room["code"], self.edge, SITE))
        await all_online(self.pages)
        players = [asyncio.create_task(self._person(p)) for p in self.pages]
        await asyncio.sleep(WARM_S)
        self.measured_from = time.time()
        stalled = cpu_stalled_s()
        await asyncio.sleep(BOTH_S - WARM_S)
        if stalled is not None:
            share = (cpu_stalled_s() - stalled) / (time.time() - self.measured_from)
            self.cpu_pressure_pct = round(100 * share, 1)
        await asyncio.to_thread(self.victim.kill)
        # After kill() has seen both processes end: nothing of web1's can
        # commit later.
        self.killed_at = time.time()
        await asyncio.sleep(ALONE_S)
        for task in players:
            task.cancel()
        for page in self.pages:
            page.runner.cancel()
            page.ws.writer.transport.abort()

    async def _person(self, page: Page) -> None:
        # The pile builds, then the clock starts at the time the deal names.
        await page.until(lambda: clock_started(page.state), "the clock start")
        pairs = next(r["pairs"] for r in self.rooms if r["code"] == page.code)
        for move, pair in enumerate(pairs):
            reply = await page.take(pair, move)
            if reply["type"] != "ack":
                self.refused.append(f"{page.name}: {reply}")
                return
            await asyncio.sleep(PACE_S * random.uniform(0.7, 1.3))


def cpu_stalled_s() -> float | None:
    """Seconds some process waited for a CPU since boot (the kernel's
    pressure stall information): the machine is shared, and while others
    keep its cores busy no timer can be on time."""
    try:
        text = Path("/proc/pressure/cpu").read_text()
    except OSError:
        return None
    return int(text.split("total=")[1].split()[0]) / 1e6


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) > 1 else 0.0


class Check:
    """What the data host recorded, judged; figures kept as they come."""

    def __init__(self, rooms, play: Play, kept: dict, figures: dict) -> None:
        self.rooms, self.play, self.kept, self.figures = rooms, play, kept, figures
        self.code = {r["id"]: r["code"] for r in rooms}
        self.moves = [m for m in kept["moves"] if m[0] in self.code]
        self.timer = [m for m in self.moves if m[4].startswith("timers ")]
        killed = play.killed_at
        self.before = [m for m in self.timer if m[3] < killed]
        self.measured = [m for m in self.before if m[2] >= play.measured_from]
        self.after = [m for m in self.timer if m[3] >= killed and m[4] == TIMERS[1]]
        self.web1_after = [
            m
            for m in self.timer
            if m[3] >= killed + LAST_COMMIT_S and m[4] == TIMERS[0]
        ]

    def all(self, data: DataHost, webs: list[WebHost]) -> None:
        """Every check, each failure told with all the figures."""
        failures = []
        for check in (
            self.both_timers_moved_rooms,
            lambda: self.no_room_moved_twice(data, webs),
            self.bots_on_time,
            self.web2_took_over,
            self.people_played,
        ):
            try:
                check()
            except AssertionError as failure:
                failures.append(str(failure).split("\nassert ")[0])
        assert not failures, "\n".join([*failures, f"figures: {self.figures}"])

    def people_played(self) -> None:
        assert not self.play.refused, f"people's pairs refused: {self.play.refused}"

    def both_timers_moved_rooms(self) -> None:
        moves = {t: [m for m in self.before if m[4] == t] for t in TIMERS}
        self.figures["moves_by_timer"] = {t: len(m) for t, m in moves.items()}
        self.figures["rooms_by_timer"] = {
            t: len({m[0] for m in ms}) for t, ms in moves.items()
        }
        # Whichever looks first after a room's time takes it: the shares
        # vary, but a timer with none is not running or never wins a claim.
        few = {t: n for t, n in self.figures["moves_by_timer"].items() if n < 10}
        assert not few, "a timer moved (almost) no room"

    def bots_on_time(self) -> None:
        stored = [(m[3] - m[2]) * 1000 for m in self.measured]
        warming = [(m[3] - m[2]) * 1000 for m in self.before if m not in self.measured]
        self.figures["stored_late_ms_warming_up"] = summary(warming)
        self.figures["stored_late_ms"] = summary(stored)
        self.figures["cpu_pressure_pct"] = self.play.cpu_pressure_pct
        pages = defaultdict(list)
        for page in self.play.pages:
            pages[page.code].append(page)
        seen = [
            (page.seen[version] - due) * 1000
            for room_id, version, due, _, _ in self.measured
            for page in pages[self.code[room_id]]
            if version in page.seen
        ]
        self.figures["seen_late_ms"] = summary(seen)
        acks = [(b - a) * 1000 for p in self.play.pages for a, b in p.acks]
        self.figures["people_ack_ms"] = summary(acks)
        assert len(stored) > 100, "too few bot moves to judge"
        # On failure, cpu_pressure_pct tells how busy the machine was.
        assert p99(stored) < LATE_P99_MS, "bots late"
        assert p99(seen) < SEEN_P99_MS, "bots' moves seen late"

    def no_room_moved_twice(self, data: DataHost, webs: list[WebHost]) -> None:
        for code, room in self.kept["rooms"].items():
            expected = list(range(1, room["version"] + 1))
            assert room["versions"] == expected, (
                f"{code}: at version {room['version']}, events {room['versions']}"
            )
            for bot in room["bots"]:
                pairs = [tuple(pair) for _, pair in bot["steps"] if pair]
                assert len(set(pairs)) == len(pairs), f"{code}: a pair twice {bot}"
                times = [ms for ms, _ in bot["steps"]]
                gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
                assert min(gaps, default=bot["think_ms"]) >= bot["think_ms"], (
                    f"{code}: a bot moved before its think time: {bot}"
                )
        versions = defaultdict(list)
        for room_id, version, _, _, _ in self.moves:  # in the order committed
            versions[room_id].append(version)
        for room_id, seq in versions.items():
            grows = all(a < b for a, b in zip(seq, seq[1:], strict=False))
            assert grows, f"{self.code[room_id]}: versions as committed {seq}"
        errors = [x for x in data.postgres_log().splitlines() if "ERROR" in x]
        assert not errors, "PostgreSQL refused a write:\n" + "\n".join(errors[:20])
        for web in webs:
            lines = web.timers.lines if web.timers else []
            failed = [x for x in lines if "failed" in x or "Traceback" in x]
            assert not failed, f"{web.name}'s timer failed:\n{''.join(lines[-40:])}"

    def web2_took_over(self) -> None:
        killed = self.play.killed_at
        assert not self.web1_after, f"web1 moved rooms once killed: {self.web1_after}"
        # web1's rooms: those it moved in its last seconds.
        web1 = {m[0] for m in self.before if m[4] == TIMERS[0] and m[3] > killed - 5}
        first = {}
        for room_id, _, due, at, _ in self.after:
            first.setdefault(room_id, (at - due, at - killed))
        late = {self.code[r]: round(first[r][0], 3) for r in first if r in web1}
        self.figures["takeover"] = {
            "web1_rooms": len(web1),
            "first_move_late_s_max": max(late.values(), default=None),
            "first_move_after_kill_s_max": round(
                max((first[r][1] for r in web1 if r in first), default=0), 3
            ),
            "moves_after": len(self.after),
            "stored_late_ms_after": summary([(m[3] - m[2]) * 1000 for m in self.after]),
        }
        moved = {self.code[r] for r in first}
        assert moved == set(self.code.values()), "rooms not moved on after the kill"
        slow = {c: s for c, s in late.items() if s > TAKEOVER_S}
        assert not slow, f"web2 took over late: {slow}"
        overdue = {c: r["overdue_ms"] for c, r in self.kept["rooms"].items()}
        self.figures["overdue_at_end_ms_max"] = round(
            max((v for v in overdue.values() if v is not None), default=0), 1
        )
        assert self.figures["overdue_at_end_ms_max"] < TAKEOVER_S * 1000, (
            f"rooms overdue at the end: {overdue}"
        )


def summary(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "p50": round(statistics.median(values), 1),
        "p99": round(p99(values), 1),
        "max": round(max(values), 1),
    }
