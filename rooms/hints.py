"""The engine's hint search, in a process of its own.

A hint is pure Python that runs for tens of milliseconds on a Big pile.
On a thread of daphne's it holds the interpreter lock all that time, and
the event loop (every socket's frames and acks) and the threads running
the other players' moves wait for it in turn: each one gives the lock up
at every database round trip and then waits up to the switch interval to
get it back. That was the whole of what one member's hints cost the
others' acks (bench/room_sockets.py). Here the search gets one worker
process per daphne process: it shares nothing with daphne but the CPU,
which the system shares fairly. The board goes there and the Hint comes
back by pickle (a few kilobytes); the rules' checks (whose turn, finished)
stay in daphne, so every error is still raised there, in the player's
language.

The worker is started when a room's first socket opens (`start`), by
spawn (a fresh interpreter that imports only the engine, not daphne's
threads and sockets), and again if it died; no hint waits for a start.
It ends with its daphne, however daphne ends (`kill -9` included): it
watches the parent's sentinel, a pipe that closes when the parent dies.
"""

import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from games.engine.board import Board
from games.engine.hint import Hint
from games.engine.hint import hint as engine_hint

Pair = tuple[int, int]

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
# The worker's niceness: when the machine is busy, the kernel gives daphne
# (every socket's moves and acks) the CPU first; a hint can wait a little,
# so a member asking for them as fast as allowed slows hints, not moves.
WORKER_NICENESS = 10
# Set once the worker of _pool has answered: until then (a second or so
# after a start) hints are searched here, as they were before.
_ready = threading.Event()


def _worker_start() -> None:
    """The worker's first act: a lower priority, and a watch on its parent."""
    os.nice(WORKER_NICENESS)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_exit_with, args=(parent.sentinel,), daemon=True
        ).start()


def _exit_with(sentinel: int) -> None:
    """Without this, a worker whose daphne was killed waits for its next
    task for ever (each left about 17 MB behind)."""
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _loaded() -> None:
    """Run in the worker first: unpickling it imports this module and so
    the engine, before any hint waits for that."""


def _executor() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=context,
                initializer=_worker_start,
            )
            _pool.submit(_loaded).add_done_callback(lambda _: _ready.set())
        return _pool


def _forget(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
            _ready.clear()
    pool.shutdown(wait=False, cancel_futures=True)


def start() -> None:
    """Start the worker now, in the background (it takes a second)."""
    _executor()


def solve(board: Board, clearing: Iterable[Pair] | None = None) -> Hint:
    """The engine's hint for `board`, worked out in the hint process; the
    calling thread waits without holding the interpreter lock. While the
    worker is starting, and if it died (killed, out of memory; it is
    started again), the search runs on the calling thread."""
    clearing = None if clearing is None else list(clearing)
    pool = _executor()
    if _ready.is_set():
        try:
            return pool.submit(engine_hint, board, clearing=clearing).result()
        except BrokenProcessPool:
            _forget(pool)
            start()
    return engine_hint(board, clearing=clearing)
