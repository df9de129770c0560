"""Start the app and what it needs; restart a part that dies; stop them all
on Ctrl+C or SIGTERM.

Embedded mode (no REDIS_URL): one daphne process; Celery runs eagerly inside
it. Production mode (REDIS_URL set): several daphne processes sharing one
listening socket (the kernel spreads connections over them), a Celery worker
and Celery beat. Both modes also run the live rooms' timer process
(`manage.py run_timers`: time limits and bots' moves).

`--parts` picks what this machine runs: on a second web machine leave out
`beat`, which must run exactly once (docs/DEPLOY.md). On a production
machine the same processes run under systemd instead (deploy/systemd/).
"""

import argparse
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
PARTS = ("web", "timers", "worker", "beat")
# Restart delays: the first at once-ish, doubling to a cap while a part keeps
# dying (a missing database must not become a busy loop), back to the first
# once it has stayed up a while.
FIRST_DELAY_S = 0.5
MAX_DELAY_S = 30.0
STABLE_S = 60.0
STOP_S = 10.0

log = logging.getLogger("serve")


def daphne_cmd(fd: int) -> list[str]:
    # The app logs each request itself (sitewide.requestlog): daphne's own
    # access log would be a second line for each. Verbosity 0 builds none at
    # all (an access log to /dev/null still formats a line per connection);
    # the app's log levels are its own settings' (LOG_LEVEL).
    return [
        *(PY, "-m", "sitewide.serve", "--fd", str(fd), "--verbosity", "0"),
        "config.asgi:application",
    ]


def lan_address() -> str:
    """This machine's address on its local network, as phones there open it:
    the source address of a route out (connecting UDP sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1, routed nowhere
            return probe.getsockname()[0]
        except OSError:  # no network: the mDNS name, if the machine has one
            return f"{socket.gethostname()}.local"


def background_cmds(parts: set[str]) -> dict[str, list[str]]:
    celery = [PY, "-m", "celery", "-A", "config", "--quiet"]
    cmds = {
        # Live rooms' time limits and bots' moves (docs/protocol.md).
        "timers": [PY, "manage.py", "run_timers"],
        "worker": [*celery, "worker", "--loglevel", "INFO", "--concurrency", "1"],
        "beat": [*celery, "beat", "--loglevel", "INFO", "--schedule", "var/celerybeat"],
    }
    return {name: cmd for name, cmd in cmds.items() if name in parts}


@dataclass
class Child:
    """One supervised process and its restart state."""

    name: str
    cmd: list[str]
    pass_fds: tuple[int, ...] = ()
    env: dict[str, str] | None = None
    proc: subprocess.Popen | None = None
    started: float = 0.0
    delay: float = FIRST_DELAY_S
    restart_at: float | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.cmd, cwd=ROOT, pass_fds=self.pass_fds, env=self.env
        )
        self.started = time.monotonic()
        self.restart_at = None
        log.info("started %s (pid %d)", self.name, self.proc.pid)

    def check(self, now: float) -> None:
        """Notice a death and plan the restart; restart when it is due."""
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.start()
            return
        code = self.proc.poll()
        if code is None:
            return
        if now - self.started >= STABLE_S:
            self.delay = FIRST_DELAY_S
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        log.warning(
            "%s (pid %d) stopped (%s); restarting in %.1f s",
            self.name,
            self.proc.pid,
            how,
            self.delay,
        )
        self.restart_at = now + self.delay
        self.delay = min(self.delay * 2, MAX_DELAY_S)


def stop_all(children: list[Child]) -> None:
    running = [c.proc for c in children if c.proc and c.proc.poll() is None]
    for proc in running:
        proc.terminate()
    deadline = time.monotonic() + STOP_S
    for proc in running:
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def parse_parts(value: str) -> set[str]:
    parts = {part.strip() for part in value.split(",") if part.strip()}
    unknown = parts - set(PARTS)
    if unknown or not parts:
        raise argparse.ArgumentTypeError(
            f"unknown part(s) {', '.join(sorted(unknown)) or '(none given)'}; "
            f"choose from {', '.join(PARTS)}"
        )
    return parts


def main() -> int:
    production = bool(os.environ.get("REDIS_URL"))
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--processes",
        type=int,
        default=2 if production else 1,
        help="daphne processes (more than one needs REDIS_URL)",
    )
    parser.add_argument(
        "--parts",
        type=parse_parts,
        default=set(PARTS) if production else {"web", "timers"},
        help="comma-separated, from: web, timers, worker, beat "
        "(default: all in production, web,timers embedded)",
    )
    args = parser.parse_args()
    if args.processes > 1 and not production:
        parser.error("several daphne processes need REDIS_URL (a shared channel layer)")
    if {"worker", "beat"} & args.parts and not production:
        parser.error("worker and beat need REDIS_URL (embedded Celery runs eagerly)")
    handler = logging.StreamHandler()
    formatter = logging.Formatter(
        "%(asctime)s.%(msecs)03dZ %(levelname)s %(name)s [-] %(message)s",
        "%Y-%m-%dT%H:%M:%S",
    )
    formatter.converter = time.gmtime
    handler.setFormatter(formatter)
    logging.basicConfig(level=logging.INFO, handlers=[handler])

    (ROOT / "var").mkdir(exist_ok=True)
    children: list[Child] = []
    if "web" in args.parts:
        # The parent holds the socket: a restarted daphne takes the same one
        # and the port is never closed while any part is down.
        sock = socket.create_server((args.host, args.port), backlog=512)
        sock.set_inheritable(True)
        fd = sock.fileno()
        children += [
            Child(f"daphne-{n}", daphne_cmd(fd), (fd,))
            for n in range(1, args.processes + 1)
        ]
    children += [Child(n, cmd) for n, cmd in background_cmds(args.parts).items()]
    if base := int(os.environ.get("METRICS_PORT") or 0):
        # One metrics port a process (docs/OPERATIONS.md): daphne-1 on
        # METRICS_PORT, the next ones and the timer on the ports after it.
        with_metrics = [c for c in children if c.name.startswith(("daphne", "timers"))]
        for n, child in enumerate(with_metrics):
            child.env = {**os.environ, "METRICS_PORT": str(base + n)}

    stopping = False

    def on_signal(signum, frame) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    for child in children:
        child.start()
    if "web" in args.parts:
        log.info(
            "Tiles is running at http://%s:%d/ (Ctrl+C stops it)", args.host, args.port
        )
    if "web" in args.parts and not production and args.host in ("0.0.0.0", "::"):
        log.info("Phones on this network open http://%s:%d/", lan_address(), args.port)
    try:
        while not stopping:
            now = time.monotonic()
            for child in children:
                child.check(now)
            time.sleep(0.1)
    finally:
        log.info("stopping %s", ", ".join(c.name for c in children))
        stop_all(children)
    return 0


if __name__ == "__main__":
    sys.exit(main())
