"""Start the app and what it needs; stop them all together.

Embedded mode (no REDIS_URL): one daphne process; Celery runs eagerly inside
it. Production mode (REDIS_URL set): several daphne processes sharing one
listening socket (the kernel spreads connections over them), a Celery worker
and Celery beat. Both modes also run the live rooms' timer process
(`manage.py run_timers`: time limits and bots' moves). Extra long-running
services join SERVICES below.
"""

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def daphne_cmd(fd: int) -> list[str]:
    return [PY, "-m", "daphne", "--fd", str(fd), "config.asgi:application"]


def background_cmds(production: bool) -> list[list[str]]:
    # Live rooms' time limits and bots' moves (docs/protocol.md), needed in
    # both modes.
    timers = [PY, "manage.py", "run_timers"]
    if not production:
        return [timers]
    celery = [PY, "-m", "celery", "-A", "config"]
    return [
        timers,
        [*celery, "worker", "--loglevel", "INFO", "--concurrency", "1"],
        [*celery, "beat", "--loglevel", "INFO", "--schedule", "var/celerybeat"],
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    production = bool(os.environ.get("REDIS_URL"))
    parser.add_argument(
        "--processes",
        type=int,
        default=2 if production else 1,
        help="daphne processes (more than one needs REDIS_URL)",
    )
    args = parser.parse_args()
    if args.processes > 1 and not production:
        parser.error("several daphne processes need REDIS_URL (a shared channel layer)")

    (ROOT / "var").mkdir(exist_ok=True)
    sock = socket.create_server((args.host, args.port), backlog=512)
    sock.set_inheritable(True)
    fd = sock.fileno()
    procs = [
        subprocess.Popen(daphne_cmd(fd), cwd=ROOT, pass_fds=(fd,))
        for _ in range(args.processes)
    ]
    procs += [subprocess.Popen(cmd, cwd=ROOT) for cmd in background_cmds(production)]
    print(f"Tiles is running at http://{args.host}:{args.port}/ (Ctrl+C stops it)")

    def stop(*_):
        for p in procs:
            if p.poll() is None:
                p.terminate()
        deadline = time.monotonic() + 10
        for p in procs:
            try:
                p.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while all(p.poll() is None for p in procs):
            time.sleep(0.5)
        # One part died: take the rest down so the failure is seen.
        print("a server process stopped; stopping the others", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, SystemExit):
        return 0
    finally:
        stop()


if __name__ == "__main__":
    sys.exit(main())
