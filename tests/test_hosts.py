"""The deployment of docs/DEPLOY.md across hosts, cut four ways (issue 25).

Network namespaces this test makes (tests/hosts.py) and removes, also when
it fails: a data host (PostgreSQL, Redis), two web hosts each running
daphne and the timer with the units' commands, an edge running nginx with
TLS on the shipped site, and a client host whose pages behave as
static/js/rooms/connection.js does (tests/page_client.py). A Race (Ann,
Bob) and a Together (Cat, Dan) are played through nginx while the web host
carrying most players is cut: kill -9, SIGTERM, its link down for 60 s and
back, and a rolling upgrade to a release with new static files. Each time:
no acknowledged move is lost, its players' next move is acknowledged
within 3 s (15 s when the link is down), the host answers /healthz within
5 s of coming back, no request waits 10 s, and every static name of both
releases loads.
"""

import asyncio
import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from tests.deployment import (
    SITE,
    WEB_PORT,
    DataHost,
    Edge,
    WebHost,
    new_release,
    temporary_folder,
    web_hosts,
)
from tests.hosts import Network, missing_tools
from tests.nginx_site import fail_timeout_s
from tests.page_client import Page, all_online
from tests.services import ROOT

LINK_DOWN_S = 60
# A race player taps a pair a second while a cut is under way (a Together
# player on their turn every 1.5 s): the Big pile's 72 pairs last the test.
PACE_S = 1.0
FAIL_TIMEOUT_S = fail_timeout_s()
ROOMS = """
import json
from rooms import actions
from tests.room_helpers import guest_cookie_value, person
seats = {}
for mode, host, guest in (("race", "Ann", "Bob"), ("together", "Cat", "Dan")):
    a, b = person(host), person(guest)
    room = actions.create_room(a, host)
    actions.join_room(room.code, b, guest)
    actions.start_game(room.code, a)
    seats[mode] = {"code": room.code, host: guest_cookie_value(a),
                   guest: guest_cookie_value(b)}
print(json.dumps(seats))
"""
SOLUTION = """
import json
from rooms.models import Room
from tests.room_helpers import solution
print(json.dumps(solution(Room.objects.get(code={code!r}))))
"""


@pytest.fixture
def network():
    lacking = missing_tools() or ("" if _which("nginx") else "nginx")
    if lacking:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the multi-host test needs {lacking}; CI must provide it")
        pytest.skip(f"the multi-host test needs {lacking}")
    network = Network(["db", "web1", "web2", "edge", "client"])
    try:
        network.make()
        yield network
    finally:
        network.remove()


def _which(tool: str) -> bool:
    return shutil.which(tool) is not None


def manage(network: Network, host: str, env: dict, *args: str) -> str:
    """A management command run on `host`; the last line it printed."""
    command = [*network.exec(host), sys.executable, "manage.py", *args]
    out = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    if out.returncode != 0:
        pytest.fail(f"manage.py {args[0]} on {host} failed:\n{out.stderr[-3000:]}")
    return (out.stdout.strip().splitlines() or [""])[-1]


@pytest.mark.services
def test_a_race_and_a_together_survive_a_host_cut_four_ways(network):
    folder = temporary_folder()
    data = DataHost(network, folder)
    webs: list[WebHost] = []
    edge = Edge(network, folder, ["web1", "web2"])
    figures: dict = {}
    started = time.monotonic()
    builder: threading.Thread | None = None
    try:
        data.start()
        env = data.env()
        release: dict[str, Path] = {}
        # The next release is built while a web host's link is down.
        builder = threading.Thread(
            target=lambda: release.setdefault("new", new_release(folder, env))
        )
        manage(network, "web1", env, "migrate", "--noinput")
        figures["migrated_s"] = round(time.monotonic() - started, 1)
        manage(network, "web1", env, "load_layouts")
        data.start_jobs(env, folder)
        figures["layouts_loaded_s"] = round(time.monotonic() - started, 1)
        edge.publish(ROOT / "staticfiles")
        webs = web_hosts(network, env, ROOT)
        edge.start()
        figures["set_up_s"] = round(time.monotonic() - started, 1)
        seats = json.loads(manage(network, "web1", env, "shell", "-c", ROOMS))

        def solution(mode: str) -> list:
            code = SOLUTION.format(code=seats[mode]["code"])
            return json.loads(manage(network, "web2", env, "shell", "-c", code))

        play = Play(network, webs, edge, seats, solution, release, builder, figures)
        run_inside(network, "client", play.run())
        figures["whole_s"] = round(time.monotonic() - started, 1)
    except BaseException:
        print(json.dumps(figures, indent=1))
        for web in webs:
            print(web.log())
        print(data.redis.log() if data.redis else "", edge.log())
        print(edge.process.log() if edge.process else "")
        raise
    finally:
        if builder and builder.is_alive():
            builder.join()
        for web in webs:
            web.stop()
        edge.stop()
        data.stop()
        shutil.rmtree(folder, ignore_errors=True)
    print("\nmulti-host figures:", json.dumps(figures, indent=1))


def run_inside(network: Network, host: str, coroutine) -> None:
    """Run the clients on `host`, in a thread of their own."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            with network.inside(host):
                asyncio.run(coroutine)
        except BaseException as error:  # noqa: BLE001 (re-raised below)
            failure.append(error)

    thread = threading.Thread(target=run, name=f"clients on {host}")
    thread.start()
    thread.join(600)
    assert not thread.is_alive(), "the clients never finished"
    if failure:
        raise failure[0]


# -- HTTP as a browser sends it, through nginx or straight to a daphne --------
async def http(
    address: str,
    path: str,
    *,
    port: int = 443,
    host: str = SITE,
    method: str = "GET",
    headers: str = "",
) -> tuple[int, str, float]:
    """One request on its own connection: status, body, seconds taken."""
    started = time.monotonic()
    tls = ssl.create_default_context() if port == 443 else None
    if tls:
        tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
    reader, writer = await asyncio.wait_for(
        asyncio.open_connection(
            address, port, ssl=tls, server_hostname=host if tls else None
        ),
        30,
    )
    writer.write(
        f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}"
        "Connection: close\r\n\r\n".encode()
    )
    answer = await asyncio.wait_for(reader.read(), 30)
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head else 0
    return status, body.decode(errors="replace"), time.monotonic() - started


async def statuses(edge: str, names: list[str]) -> dict[str, int]:
    """HEAD of every static name through nginx, on one kept-alive socket."""
    tls = ssl.create_default_context()
    tls.check_hostname, tls.verify_mode = False, ssl.CERT_NONE
    reader, writer = await asyncio.open_connection(
        edge, 443, ssl=tls, server_hostname=SITE
    )
    found = {}
    for name in names:
        writer.write(f"HEAD /static/{name} HTTP/1.1\r\nHost: {SITE}\r\n\r\n".encode())
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 15)
        found[name] = int(head.split(b" ", 2)[1])
    writer.close()
    return found


def manifest(release: Path) -> list[str]:
    data = json.loads((release / "staticfiles" / "staticfiles.json").read_text())
    return sorted(set(data["paths"].values()))


class Play:
    """The players, the cuts and the figures."""

    def __init__(self, network, webs, edge, seats, solution, release, builder, figs):
        self.network, self.webs, self.edge = network, webs, edge
        self.seats, self.solution, self.release = seats, solution, release
        self.orders: dict[str, list] = {}
        self.builder, self.figures = builder, figs
        self.pages: list[Page] = []
        self.done: dict[str, int] = {}
        self.limit: dict[str, int] = {}  # pairs a player may have acked by now
        self.active = False
        self.players: list[asyncio.Task] = []
        self.slowest = {"request": 0.0, "handshake": 0.0}
        self.failed_requests: list[int] = []

    async def run(self) -> None:
        self.http_probe = asyncio.create_task(self._probe_pages())
        race, together = self.seats["race"], self.seats["together"]
        for name in ("Ann", "Bob"):
            self.pages.append(self._page(name, race))
        for name in ("Cat", "Dan"):
            self.pages.append(self._page(name, together))
        await all_online(self.pages)
        ann, cat = self.pages[0], self.pages[2]
        for host, mode in ((ann, "race"), (cat, "together")):
            deal = {"type": "deal", "mode": mode, "pile": "big", "limit": 0}
            assert (await host.request(deal))["type"] == "ack"
        for page in self.pages:
            await page.until(lambda p=page: p.state["round"], "the deal", 30)
        for mode in ("race", "together"):
            self.orders[mode] = await asyncio.to_thread(self.solution, mode)
        await asyncio.sleep(2)  # the piles build; then every clock starts
        self.players = [asyncio.create_task(self._player(p)) for p in self.pages]

        await self._moves("warm-up")
        old_names = manifest(ROOT)
        await self._all_load(old_names, "before")

        await self._cut("kill -9", self._kill)
        await self._cut("SIGTERM", self._terminate)
        await self._cut("link down", self._link_down)
        waited = time.monotonic()
        await asyncio.to_thread(self.builder.join)
        self.figures["waited_for_the_new_release_s"] = round(
            time.monotonic() - waited, 1
        )
        new = self.release["new"]
        new_names = manifest(new)
        assert set(new_names) != set(old_names), "the new release's names differ"
        self.edge.publish(new / "staticfiles")
        await self._all_load(old_names + new_names, "published")
        await self._cut("rolling upgrade", self._upgrade)
        await self._all_load(old_names + new_names, "upgraded")

        for player in self.players:
            player.cancel()
        self.http_probe.cancel()
        await self._nothing_acked_was_lost()
        for page in self.pages:
            page.runner.cancel()
            page.ws.writer.transport.abort()
        self.slowest["handshake"] = round(
            max(took for p in self.pages for _, took in p.handshakes), 2
        )
        self.figures["slowest_s"] = self.slowest
        self.figures["page_loads_failed"] = self.failed_requests
        assert self.slowest["request"] < 10, self.slowest
        assert self.slowest["handshake"] < 10, self.slowest

    def _page(self, name: str, room: dict) -> Page:
        page = Page(name, room[name], room["code"], self.edge.address, SITE)
        self.done[name] = 0
        return page

    # -- the players ----------------------------------------------------------
    async def _player(self, page: Page) -> None:
        """Taps the next pair as soon as it may (its turn, in Together),
        then waits PACE_S, while a cut is under way."""
        together = page.code == self.seats["together"]["code"]
        order = self.orders["together" if together else "race"]
        pace = PACE_S * (1.5 if together else 1)
        while True:
            if not self.active or self.done[page.name] >= self.limit[page.name]:
                await asyncio.sleep(0.05)
                continue
            if together:
                rnd = page.state["round"]
                if rnd["turn_seat"] != page.seat or not page.online.is_set():
                    await asyncio.sleep(0.05)
                    continue
                pair = order[sum(len(s["taken"]) for s in rnd["seats"])]
                move = len(rnd["moves"])
            else:
                pair, move = order[self.done[page.name]], self.done[page.name]
            reply = await page.take(pair, move)
            if reply["type"] == "ack":
                self.done[page.name] += 1
                await asyncio.sleep(pace)
            elif reply.get("code") in ("not_your_turn", "stale", "gone"):
                # What this page saw was behind: the next state tells.
                await asyncio.sleep(0.05)
            else:
                pytest.fail(f"{page.name}'s pair refused: {reply}")

    async def _moves(self, what: str) -> None:
        """Everyone plays until each has two more pairs acknowledged."""
        goal = {n: d + 2 for n, d in self.done.items()}
        self._play(2)
        await self._until(
            lambda: all(self.done[n] >= g for n, g in goal.items()), what, 60
        )
        self.active = False

    async def _recovered(self, victims: list[Page], moment: float, what: str):
        """Until each of the cut host's players has a pair acknowledged that
        was tapped after `moment`."""
        await self._until(
            lambda: all(p.next_ack_after(moment) is not None for p in victims),
            f"{what}: the cut host's players' next pair",
            60,
        )

    def _describe(self) -> str:
        return "; ".join(
            f"{p.name}: acked {self.done[p.name]}, online {p.online.is_set()},"
            f" on {p.upstream}, drops {p.drops[-2:]}, errors {p.errors[-2:]},"
            f" last replies {list(p.replies.values())[-2:]}"
            for p in self.pages
        )

    def _play(self, pairs: int) -> None:
        """Everyone may take up to `pairs` more."""
        self.limit = {n: d + pairs for n, d in self.done.items()}
        self.active = True

    async def _until(self, check, what: str, within: float) -> None:
        deadline = time.monotonic() + within
        while not check():
            for player in self.players:
                if player.done():
                    player.result()  # a player's failure is the test's
            if time.monotonic() > deadline:
                pytest.fail(f"{what}: not within {within} s; {self._describe()}")
            await asyncio.sleep(0.05)

    async def _probe_pages(self) -> None:
        """A visitor loading the home page through nginx every half second."""
        while True:
            try:
                status, _, took = await http(self.edge.address, "/")
            except (OSError, TimeoutError, IndexError, ValueError):
                status, took = 0, 30.0
            self.slowest["request"] = max(self.slowest["request"], round(took, 2))
            if status != 200:
                self.failed_requests.append(status)
            await asyncio.sleep(0.5)

    # -- the cuts ---------------------------------------------------------
    def _on(self, web: WebHost) -> list[Page]:
        return [p for p in self.pages if p.upstream.startswith(web.address)]

    async def _cut(self, what: str, how) -> None:
        """Cut the host carrying most players while everyone plays."""
        web = max(self.webs, key=lambda w: len(self._on(w)))
        victims = self._on(web)
        assert victims, "a cut host carries players"
        self._play(6)
        moment, figures = await how(web, victims, what)
        await self._recovered(victims, moment, what)
        self.active = False
        figures["host"] = web.name
        figures["players"] = [p.name for p in victims]
        figures["next_ack_s"] = {
            p.name: round(p.next_ack_after(moment), 2) for p in victims
        }
        figures["dropped_after_s"] = {
            p.name: round(
                min([w for w, _ in p.drops if w >= moment] or [0]) - moment, 2
            )
            for p in victims
        }
        figures["handshakes_s"] = {
            p.name: [round(t, 2) for w, t in p.handshakes if w >= moment]
            for p in victims
        }
        figures["refusals"] = sorted({e[:60] for p in victims for e in p.errors[-3:]})
        figures["closes_seen"] = sorted(
            {str(code) for p in victims for when, code in p.drops if when >= moment}
        )
        self.figures[what] = figures
        limit = 15 if what == "link down" else 3
        slow = {n: s for n, s in figures["next_ack_s"].items() if s > limit}
        assert not slow, f"{what}: next ack later than {limit} s: {figures}"
        await self._moves(f"after {what}")
        # One host is cut at a time: nginx takes a host that failed back
        # into rotation after its fail_timeout (deploy/nginx/tiles.conf).
        await asyncio.sleep(FAIL_TIMEOUT_S)

    async def _kill(self, web: WebHost, victims, what) -> tuple[float, dict]:
        moment = time.monotonic()
        web.kill()
        await asyncio.sleep(1)  # systemd's RestartSec=1
        return moment, await self._restart(web)

    async def _terminate(self, web: WebHost, victims, what) -> tuple[float, dict]:
        moment = time.monotonic()
        stopped = await asyncio.to_thread(web.terminate)
        await asyncio.sleep(1)
        return moment, {"stop_s": stopped, **await self._restart(web)}

    async def _link_down(self, web: WebHost, victims, what) -> tuple[float, dict]:
        moment = time.monotonic()
        self.network.cut(web.name)
        self.builder.start()  # the next release, while the minute passes
        await self._recovered(victims, moment, what)
        self.active = False
        await asyncio.sleep(LINK_DOWN_S - (time.monotonic() - moment))
        self.network.uncut(web.name)
        figures = {"healthz_after_link_up_s": await self._healthz(web)}
        return moment, figures

    async def _upgrade(self, web: WebHost, victims, what) -> tuple[float, dict]:
        """Web machines one at a time, the one without these players first."""
        figures: dict = {}
        other = next(w for w in self.webs if w is not web)
        moment = time.monotonic()
        for host in (other, web):
            if host is web:
                moment = time.monotonic()
                self._play(6)
            stopped = await asyncio.to_thread(host.terminate)
            host.release = self.release["new"]
            figures[host.name] = {"stop_s": stopped, **await self._restart(host)}
            await self._pages_find_their_files(host)
            # docs/DEPLOY.md: healthy, and back in nginx's rotation (its
            # fail_timeout), before the next machine.
            await asyncio.sleep(FAIL_TIMEOUT_S)
        return moment, figures

    async def _restart(self, web: WebHost) -> dict:
        """systemd starting the units again; then /healthz, once it listens."""
        started = time.monotonic()
        web.start()
        await asyncio.to_thread(web.wait_listening)
        return {
            "listening_s": round(time.monotonic() - started, 2),
            "healthz_after_listening_s": await self._healthz(web),
        }

    async def _healthz(self, web: WebHost) -> float:
        """Seconds until the host answers /healthz with 200 (by address, as
        the load balancer asks); under 5."""
        started = time.monotonic()
        while True:
            try:
                status, body, _ = await http(
                    web.address, "/healthz", port=WEB_PORT, host=web.address
                )
            except (OSError, TimeoutError, IndexError, ValueError):
                status, body = 0, ""
            took = round(time.monotonic() - started, 2)
            if status == 200:
                assert took < 5, f"{web.name} answered /healthz after {took} s"
                return took
            self.figures.setdefault("healthz_not_ok", []).append(
                f"{web.name} +{took} s: {status} {body[:160]}"
            )
            if took > 30:
                pytest.fail(f"{web.name} never healthy: {status} {body[:300]}")
            await asyncio.sleep(0.2)

    # -- the static files ---------------------------------------------------
    async def _all_load(self, names: list[str], when: str) -> None:
        found = await statuses(self.edge.address, names)
        missing = {n: s for n, s in found.items() if s != 200}
        loaded = len(names) - len(missing)
        self.figures[f"static_names_{when}"] = f"{loaded} of {len(names)} 200"
        assert not missing, f"{when}: static names not 200: {missing}"

    async def _pages_find_their_files(self, web: WebHost) -> None:
        """The home page each host renders names files that load."""
        proto = "X-Forwarded-Proto: https\r\n"
        for host in self.webs:
            _, body, _ = await http(
                host.address, "/", port=WEB_PORT, host=SITE, headers=proto
            )
            names = sorted(set(re.findall(r'/static/([^"\'?#\s]+)', body)))
            assert names, f"{host.name}'s page names no static file"
            await self._all_load(names, f"{web.name}_upgraded_{host.name}_page")

    # -- the record -----------------------------------------------------------
    def _limit_entries(self) -> str:
        """Redis's socket counts (rooms/limits.py): each entry's end."""
        address = self.network.addresses["db"]
        cli = [*self.network.exec("db"), "redis-cli", "-h", address]
        run = partial(subprocess.run, capture_output=True, text=True)
        keys = run([*cli, "--scan", "--pattern", "tiles:limits:*"]).stdout.split()
        lines = [f"redis TIME {run([*cli, 'TIME']).stdout.split()[:1]}"]
        for key in keys:
            entries = run([*cli, "ZRANGE", key, "0", "-1", "WITHSCORES"]).stdout
            lines.append(f"{key}: {' '.join(entries.split())}")
        return "\n".join(lines)

    async def _nothing_acked_was_lost(self) -> None:
        check = {}
        for mode, names in (("race", ("Ann", "Bob")), ("together", ("Cat", "Dan"))):
            room = self.seats[mode]
            page = Page(names[0], room[names[0]], room["code"], self.edge.address, SITE)
            try:
                await all_online([page], 20)
            except AssertionError as failure:
                raise AssertionError(f"{failure}\n{self._limit_entries()}") from None
            check[mode] = page.state["round"]
            page.runner.cancel()
        racers = {r["name"]: r["matches"] for r in check["race"]["racers"]}
        taken = {s["name"]: len(s["taken"]) for s in check["together"]["seats"]}
        acked = {n: self.done[n] for n in self.done}
        self.figures["acked_moves"] = acked
        self.figures["kept_moves"] = {**racers, **taken}
        lost = {n: acked[n] - {**racers, **taken}[n] for n in acked}
        assert all(v <= 0 for v in lost.values()), f"acked moves lost: {lost}"
