"""A backup that can be restored: `manage.py backup_database` (what
deploy/systemd/tiles-backup.service runs) dumps a database with a room in
play, a solo run in progress and a best time; pg_restore puts the dump into
a fresh database, as docs/OPERATIONS.md says; a daphne on that database
plays on: the room's next moves are acked, the run's next pair is taken,
the best time shows on the player's page."""

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from http.cookies import SimpleCookie

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections

from games.models import BestTime
from tests.room_helpers import guest_cookie_value, solution
from tests.run_helpers import Browser, FakeClock, play_through, witness_of
from tests.seat_client import Seat, start_race, take_in_turns
from tests.services import (
    ROOT,
    Daphne,
    current_database_url,
    needs_services,
    server_env,
)
from tests.test_two_daphne import seated_room


def postgres(*args: str) -> None:
    db = connection.settings_dict
    where = ["-h", db["HOST"] or "127.0.0.1", "-p", str(db["PORT"] or 5432)]
    where += ["-U", db["USER"] or "postgres"]
    subprocess.run([args[0], *where, *args[1:]], check=True, capture_output=True)


def play_solo(monkeypatch) -> tuple[Browser, dict, int]:
    """A cleared deal (a best time: a pair a second on a fake clock), then
    a new one (on the real clock) with one pair taken."""
    me = Browser()
    clock = FakeClock(monkeypatch)
    won = play_through(me, me.start().json(), clock).json()
    assert won["status"] == "won" and won["new_best"]
    monkeypatch.undo()
    run = me.start().json()
    a, b = witness_of(run["id"])[0]
    run = me.take(run, a, b).json()
    assert len(run["removed"]) == 1
    return me, run, BestTime.objects.get().best_ms


def ask(daphne: Daphne, path: str, cookies: SimpleCookie, body: bytes | None = None):
    """A request as the player's browser sends it: its cookies, and its
    CSRF token when it posts."""
    headers = {"Cookie": "; ".join(f"{k}={m.value}" for k, m in cookies.items())}
    if body is not None:
        headers["X-CSRFToken"] = cookies["csrftoken"].value
        headers["Content-Type"] = "application/json"
    url = f"http://127.0.0.1:{daphne.port}{path}"
    request = urllib.request.Request(url, data=body, headers=headers)
    return urllib.request.urlopen(request, timeout=15)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
async def test_a_restored_dump_plays_on(tmp_path, monkeypatch):
    needs_services("pg_dump, pg_restore and daphne")
    room, ann_player, bob_player = await sync_to_async(seated_room)()
    cookie = sync_to_async(guest_cookie_value)
    ann = Seat("ann", await cookie(ann_player), room.code)
    bob = Seat("bob", await cookie(bob_player), room.code)
    before = Daphne(server_env(), "daphne before")
    processes = [before]
    restored = connection.settings_dict["NAME"] + "_restored"
    try:
        before.wait_ready()
        await ann.connect(before.port)
        await bob.connect(before.port)
        pairs = await start_race(ann, bob, lambda: sync_to_async(solution)(room))
        await take_in_turns(ann, bob, pairs, range(2))
        await ann.ws.close()
        await bob.ws.close()
        before.stop()
        me, run, best_ms = await sync_to_async(play_solo)(monkeypatch)

        # The backup, as its systemd unit takes it, beside an old one.
        backups = tmp_path / "backups"
        backups.mkdir()
        old = backups / "tiles-20200101T000000Z.dump"
        old.write_bytes(b"an old dump")
        os.utime(old, (time.time() - 20 * 86400,) * 2)
        env = server_env()
        command = [sys.executable, "manage.py", "backup_database", "--dir"]
        command += [str(backups), "--keep-days", "14", "--keep-last", "1"]
        done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True)
        assert done.returncode == 0, done.stderr.decode()
        (dump,) = backups.glob("tiles-*.dump")  # the old one is cleared
        assert dump != old and (dump.stat().st_mode & 0o077) == 0

        # Restored into a fresh database, as docs/OPERATIONS.md says.
        await sync_to_async(postgres)("dropdb", "--if-exists", restored)
        # This test's own connection, on the thread sync_to_async used.
        await sync_to_async(connections.close_all)()
        await sync_to_async(postgres)("createdb", restored)
        await sync_to_async(postgres)(
            "pg_restore", "--no-owner", "--exit-on-error", "-d", restored, str(dump)
        )
        url = current_database_url().rsplit("/", 1)[0] + "/" + restored
        after = Daphne(server_env(DATABASE_URL=url), "daphne after")
        processes.append(after)
        after.wait_ready()

        # The room plays on: each reconnects from where it was; next moves.
        await ann.connect(after.port)
        await bob.connect(after.port)
        await take_in_turns(ann, bob, pairs, range(2, 4))
        assert ann.racer(1)["matches"] == 4 and bob.racer(0)["matches"] == 4

        # The run plays on, with its best time.
        cookies = me.client.cookies
        a, b = (await sync_to_async(witness_of)(run["id"]))[1]
        body = f'{{"a": {a}, "b": {b}, "move": 1}}'.encode()
        taken = ask(after, f"/play/api/runs/{run['id']}/take", cookies, body)
        answer = json.loads(taken.read())
        assert len(answer["removed"]) == 2 and answer["best_ms"] == best_ms

        # The best time shows on the player's page.
        page = ask(after, "/accounts/profile/", cookies).read().decode()
        assert re.search(r'<tr data-board="free:small">', page), page
    finally:
        for process in processes:
            process.stop()
        await sync_to_async(postgres)("dropdb", "--if-exists", restored)
        # This test's own connection, on the thread sync_to_async used.
        await sync_to_async(connections.close_all)()
