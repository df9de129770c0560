"""Processes that end cleanly (issue 25): nothing of the project outlives
the process that started it, however that process ends."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HINT_WORKER = """
import time
from rooms import hints
hints.start()
while not hints._ready.is_set():
    time.sleep(0.05)
print("ready", flush=True)
time.sleep(60)
"""


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(c) for c in path.read_text().split()] if path.exists() else []


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_the_hint_worker_dies_with_its_daphne_even_on_kill_9():
    parent = subprocess.Popen(
        [sys.executable, "-c", HINT_WORKER],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    left: list[int] = []
    try:
        assert parent.stdout.readline().strip() == "ready"
        left = children(parent.pid)
        assert left, "the hint worker (and its resource tracker) run"
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 5
        while any(map(alive, left)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in left if alive(pid)], "orphaned hint workers"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for pid in left:  # what a failure left behind (these pids only)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
