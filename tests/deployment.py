"""The deployment of docs/DEPLOY.md, built in network namespaces
(tests/hosts.py): a data host (PostgreSQL, Redis), web hosts each running
daphne and the timer with the commands of deploy/systemd/, and an edge
host running nginx with TLS on the shipped site (tests/nginx_site.py),
serving the static files of every release from its own folder."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests import nginx_site
from tests.hosts import Network, postgres_bin
from tests.services import ROOT, Process

SITE = "tiles.test"
WEB_PORT = 8001
KEY = "multi-host-test-key-used-by-no-deployment-7c1e9a4f2b6d8e3a5c0f"
START_S = 90


class DataHost:
    """PostgreSQL and Redis on the data host, listening on its address only."""

    def __init__(self, network: Network, folder: Path) -> None:
        self.network = network
        self.address = network.addresses["db"]
        self.bin = postgres_bin()
        self.data = folder / "pg"
        self.data.mkdir()
        shutil.chown(self.data, "postgres", "postgres")
        self.redis: Process | None = None
        self.jobs: list[Process] = []

    def postgres(self, *args: str, on_host: bool = False) -> None:
        prefix = self.network.exec("db") if on_host else []
        command = [*prefix, "runuser", "-u", "postgres", "--", *args]
        out = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            pytest.fail(f"{' '.join(args[:2])} failed:\n{out.stdout}{out.stderr}")

    def start(self) -> None:
        self.postgres(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust")
        with open(self.data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {self.network.subnet} trust\n")
        settings = (
            f"-c listen_addresses={self.address} -c port=5432"
            f" -c unix_socket_directories={self.data} -c fsync=off"
            # docs/DEPLOY.md sets the same on the server: a cut host's open
            # transaction would hold its row locks until TCP gives up.
            " -c idle_in_transaction_session_timeout=10s"
        )
        self.postgres(
            str(self.bin / "pg_ctl"),
            *("-D", str(self.data), "-l", str(self.data / "log"), "-w"),
            *("-o", settings, "start"),
            on_host=True,
        )
        redis = ["redis-server", "--bind", self.address, "--port", "6379"]
        redis += ["--save", "", "--appendonly", "no", "--protected-mode", "no"]
        self.redis = Process([*self.network.exec("db"), *redis], {}, "redis")

    def env(self) -> dict[str, str]:
        """/etc/tiles/env of docs/DEPLOY.md, for this deployment."""
        mine = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "TILES_HTTPS")
        env = {k: v for k, v in os.environ.items() if k not in mine}
        webs = [a for h, a in self.network.addresses.items() if h.startswith("web")]
        return {
            **env,
            "DATABASE_URL": f"postgres://postgres@{self.address}:5432/postgres",
            "REDIS_URL": f"redis://{self.address}:6379/0",
            "SECRET_KEY": KEY,
            "ALLOWED_HOSTS": ",".join([SITE, *webs]),
            "CSRF_TRUSTED_ORIGINS": f"https://{SITE}",
            "TRUST_X_FORWARDED_PROTO": "1",
            "PYTHONUNBUFFERED": "1",
        }

    def start_jobs(self, env: dict[str, str], folder: Path) -> None:
        """The Celery worker and beat, which docs/DEPLOY.md runs on one
        machine (here the data host): /healthz fails while their heartbeats
        are missing."""
        run = self.network.exec("db")
        worker = unit_command("tiles-worker.service")
        beat = unit_command("tiles-beat.service", var=folder)
        self.jobs = [
            Process([*run, *worker], env, "celery worker"),
            Process([*run, *beat], env, "celery beat"),
        ]

    def postgres_log(self) -> str:
        """What PostgreSQL logged: its errors, with their statements."""
        log = self.data / "log"
        return log.read_text(errors="replace") if log.exists() else ""

    def stop(self) -> None:
        for job in self.jobs:
            job.stop()
        if self.redis:
            self.redis.stop()
        stop = [str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate"]
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *stop, "stop"], capture_output=True
        )


def unit_command(name: str, var: Path | None = None, **values: str) -> list[str]:
    """A unit's ExecStart from deploy/systemd/, for a checkout at ROOT's
    place (and its var/ at `var`): the same options the machines run with."""
    text = (ROOT / "deploy" / "systemd" / name).read_text().replace("\\\n", " ")
    lines = text.splitlines()
    home = next(x for x in lines if x.startswith("WorkingDirectory=")).split("=")[1]
    line = next(x for x in lines if x.startswith("ExecStart="))
    words = line.removeprefix("ExecStart=").split()
    for key, value in values.items():
        words = [w.replace(f"${{{key}}}", value) for w in words]
    if var is not None:
        words = [w.replace("/".join((home, "var")), str(var)) for w in words]
    assert words[0] == f"{home}/.venv/bin/python", words
    return [sys.executable, *words[1:]]


def unit_stop_seconds(name: str) -> int:
    text = (ROOT / "deploy" / "systemd" / name).read_text()
    line = next(x for x in text.splitlines() if x.startswith("TimeoutStopSec="))
    return int(line.split("=")[1])


class WebHost:
    """One web machine: tiles-web@8001 and tiles-timers, from `release`."""

    def __init__(self, network: Network, name: str, env: dict, release: Path):
        self.network, self.name, self.env = network, name, env
        self.address = network.addresses[name]
        self.release = release
        self.daphne: Process | None = None
        self.timers: Process | None = None
        self.logs: list[str] = []

    def start(self) -> None:
        run = self.network.exec(self.name)
        web = unit_command("tiles-web@.service", TILES_BIND=self.address)
        web = [w.replace("%i", str(WEB_PORT)) for w in web]
        timers = unit_command("tiles-timers.service")
        label = f"{self.name} ({self.release.name})"
        self.daphne = Process(
            [*run, *web], self.named("daphne"), f"daphne {label}", self.release
        )
        self.timers = Process(
            [*run, *timers], self.named("timers"), f"timers {label}", self.release
        )

    def named(self, unit: str) -> dict[str, str]:
        """The environment of one of the host's units, its database
        connections named after it (libpq's PGAPPNAME), so the data host
        can tell which process wrote what."""
        return {**self.env, "PGAPPNAME": f"{unit} {self.name}"}

    def processes(self) -> list[Process]:
        return [p for p in (self.daphne, self.timers) if p]

    def wait_listening(self) -> None:
        deadline = time.monotonic() + START_S
        with self.network.inside(self.name):
            while True:
                try:
                    socket_probe(self.address, WEB_PORT)
                    return
                except OSError:
                    if self.daphne.proc.poll() is not None:
                        pytest.fail(f"daphne on {self.name} ended\n{self.log()}")
                    if time.monotonic() > deadline:
                        pytest.fail(f"daphne on {self.name} never listened")
                    time.sleep(0.1)

    def kill(self) -> None:
        """kill -9 of daphne and the timer: what a crash or the OOM killer does."""
        for process in self.processes():
            process.proc.send_signal(signal.SIGKILL)
        for process in self.processes():
            process.proc.wait()
        self.keep_logs()

    def terminate(self) -> dict[str, float]:
        """systemctl stop: SIGTERM to each; how long each took to end."""
        started = time.monotonic()
        for process in self.processes():
            process.proc.send_signal(signal.SIGTERM)
        took = {}
        for process, unit in (
            (self.daphne, "tiles-web@.service"),
            (self.timers, "tiles-timers.service"),
        ):
            try:
                process.proc.wait(unit_stop_seconds(unit))
            except subprocess.TimeoutExpired:
                process.proc.kill()  # systemd's SIGKILL after TimeoutStopSec
                process.proc.wait()
            took[unit] = round(time.monotonic() - started, 2)
        self.keep_logs()
        return took

    def keep_logs(self) -> None:
        self.logs += [p.log() for p in self.processes()]

    def log(self) -> str:
        return "\n".join([*self.logs[-4:], *(p.log() for p in self.processes())])

    def stop(self) -> None:
        for process in self.processes():
            process.stop()


def web_hosts(network: Network, env: dict, release: Path) -> list[WebHost]:
    """web1 and web2 started from `release`, each listening."""
    webs = [WebHost(network, name, env, release) for name in ("web1", "web2")]
    for web in webs:
        web.start()
    for web in webs:
        web.wait_listening()
    return webs


def socket_probe(address: str, port: int) -> None:
    socket.create_connection((address, port), 0.5).close()


class Edge:
    """nginx with TLS in front of the web hosts, on the shipped site."""

    def __init__(self, network: Network, folder: Path, webs: list[str]) -> None:
        self.network = network
        self.address = network.addresses["edge"]
        self.prefix = folder / "nginx"
        self.public = folder / "public"
        (self.public / "static").mkdir(parents=True)
        self.cert, key = nginx_site.self_signed(folder, SITE)
        upstreams = [f"{network.addresses[w]}:{WEB_PORT}" for w in webs]
        text = nginx_site.site(
            upstreams=upstreams,
            cert=self.cert,
            key=key,
            public=self.public,
            # Which daphne a socket reached: the test's own header.
            extra_server="    add_header X-Upstream $upstream_addr always;",
        )
        self.conf = nginx_site.main_config(self.prefix, text)
        self.process: Process | None = None

    def publish(self, staticfiles: Path) -> None:
        """docs/DEPLOY.md's upgrade step: the release's static files into
        the folder nginx serves, beside every earlier release's."""
        subprocess.run(
            [
                "cp",
                "-a",
                "--no-clobber",
                f"{staticfiles}/.",
                str(self.public / "static"),
            ],
            check=True,
        )

    def start(self) -> None:
        out = nginx_site.check(self.conf, self.prefix)
        assert out.returncode == 0, out.stderr
        command = ["nginx", "-c", str(self.conf), "-p", str(self.prefix)]
        command += ["-g", "daemon off;"]
        command[0] = shutil.which("nginx") or "nginx"
        self.process = Process([*self.network.exec("edge"), *command], {}, "nginx")

    def log(self) -> str:
        """nginx's errors (a run of "no live upstreams" counted, not listed)
        and its last requests, each with the upstreams it tried."""
        logs = self.prefix / "logs"
        lines: list[str] = []
        if (logs / "error.log").exists():
            errors = (logs / "error.log").read_text().splitlines()
            flood = [line for line in errors if "no live upstreams" in line]
            lines += [line for line in errors if line not in flood][-30:]
            if flood:
                span = f"{flood[0][:19]} to {flood[-1][:19]}"
                lines.append(f'{len(flood)} x "no live upstreams", {span}')
        if (logs / "access.log").exists():
            lines.append("--- nginx's last requests ---")
            lines += (logs / "access.log").read_text().splitlines()[-80:]
        return "\n".join(lines)

    def stop(self) -> None:
        if self.process:
            self.process.stop()


def new_release(folder: Path, env: dict) -> Path:
    """The next release, as `git pull` would bring it: this checkout's files
    with one script changed (so new hashed names), built and collected in
    a folder of its own. The same virtualenv runs it."""
    release = folder / "release-2"
    tracked = (
        subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        )
        .stdout.decode()
        .split("\0")
    )
    built = [
        str(p.relative_to(ROOT))
        for pattern in ("static/dist/**/*", "locale/**/*.mo")
        for p in ROOT.glob(pattern)
        if p.is_file()
    ]
    for name in filter(None, [*tracked, *built]):
        source = ROOT / name
        if source.is_file():
            target = release / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    room = release / "static" / "dist" / "room.js"
    room.write_text(room.read_text() + "\n// release 2\n")
    out = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=release,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return release


def temporary_folder() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="tiles-hosts-"))
    folder.chmod(0o755)  # PostgreSQL's user reaches its data folder inside
    return folder
