"""The rooms bench counts the CPU of its own processes only (issue 29).

The machine is shared: a busy process that is not the run's (another
person's test server, database backend or benchmark) must not change the
figure, and work the run's processes do in a child must count.
"""

import subprocess
import sys
import time

import pytest
from django.db import connection

from bench.own_cpu import Ledger, cpu_seconds, tree

from .services import needs_services

BURN_S = 0.5
# Burns BURN_S of CPU, says so, then idles until its stdin closes.
BURNER = (
    "import sys, time\n"
    f"while time.process_time() < {BURN_S}: pass\n"
    "print('burnt', flush=True)\n"
    "sys.stdin.read()\n"
)
# The run's process: idle itself, its child does the work.
PARENT = f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {BURNER!r}])\n"


def wait_for(condition, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_busy_stranger_does_not_count_and_a_child_does():
    stranger = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    ours = subprocess.Popen(
        [sys.executable, "-c", PARENT],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        ledger = Ledger({"run": lambda: tree([ours.pid])})
        ledger.start()
        stranger0 = cpu_seconds(stranger.pid)
        ledger.sample()
        assert ours.stdout.readline() == "burnt\n"
        ledger.sample()
        # The stranger kept burning all along, far more than our child.
        wait_for(lambda: cpu_seconds(stranger.pid) - stranger0 > 2 * BURN_S)
        ledger.sample()
        counted = ledger.seconds()["run"]
        assert 0.6 * BURN_S < counted < 1.6 * BURN_S
    finally:
        stranger.kill()
        ours.stdin.close()
        ours.wait()
        stranger.wait()


@pytest.mark.django_db
def test_database_backends_are_counted_by_their_application_name():
    """The servers' backends carry the run's tag (PGAPPNAME); a busy
    backend of another connection does not count."""
    needs_services("the rooms bench")
    import psycopg

    settings = connection.settings_dict
    dsn = {
        "host": settings["HOST"] or "127.0.0.1",
        "port": settings["PORT"] or 5432,
        "user": settings["USER"],
        "dbname": settings["NAME"],
    }
    busy = "SELECT count(*) FROM generate_series(1, %s)"
    with (
        psycopg.connect(**dsn, application_name="tiles-bench-test") as tagged,
        psycopg.connect(**dsn, application_name="someone-else") as other,
    ):

        def backends() -> list[int]:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                    ["tiles-bench-test"],
                )
                return [pid for (pid,) in cursor.fetchall()]

        ledger = Ledger({"database": backends})
        ledger.start()
        theirs = other.info.backend_pid
        theirs0 = cpu_seconds(theirs)
        other.execute(busy, [6_000_000])
        tagged.execute(busy, [1_000_000])
        ledger.sample()
        mine = cpu_seconds(tagged.info.backend_pid)
        assert backends() == [tagged.info.backend_pid]
        assert ledger.seconds()["database"] == pytest.approx(
            mine - ledger.base[("database", tagged.info.backend_pid)]
        )
        # The other backend worked harder and is nowhere in the figure.
        assert cpu_seconds(theirs) - theirs0 > ledger.seconds()["database"]
