"""Test hosts on one machine: network namespaces joined by a bridge.

Each host is a namespace with one veth into a switch namespace holding the
bridge, and an address of a private /24 that exists only inside these
namespaces (nothing is added to the machine's own network). A test thread
can enter a host (`inside`) so the sockets it opens are that host's.
Everything is removed by `Network.remove`, also after a failure; names start
with a prefix (TILES_NETNS_PREFIX, else one made from the pid) so parallel
runs never meet.
"""

import os
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path

SUBNET = "10.250.16"


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


def missing_tools() -> str:
    """What this machine lacks to make test hosts ('' when nothing)."""
    if os.geteuid() != 0:
        return "root (to make network namespaces)"
    for tool in ("ip", "runuser", "redis-server"):
        if shutil.which(tool) is None:
            return tool
    if not postgres_bin():
        return "PostgreSQL's server binaries"
    return ""


def postgres_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    return found[-1].parent if found else None


class Network:
    def __init__(self, hosts: list[str], prefix: str | None = None) -> None:
        self.prefix = (
            prefix
            or os.environ.get("TILES_NETNS_PREFIX")
            or (f"t{os.getpid() % 100000}")
        )
        self.switch = f"{self.prefix}sw"
        self.subnet = f"{SUBNET}.0/24"
        self.addresses = {
            host: f"{SUBNET}.{n}" for n, host in enumerate(hosts, start=1)
        }

    def ns(self, host: str) -> str:
        return f"{self.prefix}{host}"

    def veth(self, host: str) -> str:
        return f"{self.prefix}{host}v"

    def make(self) -> None:
        self.remove()  # what a killed earlier run with this prefix left
        ip("netns", "add", self.switch)
        ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        ip("-n", self.switch, "link", "set", "br0", "up")
        for host, address in self.addresses.items():
            ns, veth, port = self.ns(host), self.veth(host), f"{self.prefix}{host}p"
            ip("netns", "add", ns)
            ip("link", "add", veth, "type", "veth", "peer", "name", port)
            ip("link", "set", veth, "netns", ns)
            ip("link", "set", port, "netns", self.switch)
            ip("-n", self.switch, "link", "set", port, "master", "br0", "up")
            ip("-n", ns, "addr", "add", f"{address}/24", "dev", veth)
            ip("-n", ns, "link", "set", veth, "up")
            ip("-n", ns, "link", "set", "lo", "up")

    def cut(self, host: str) -> None:
        """The host's cable pulled: no packet in or out, no reset sent."""
        ip("-n", self.ns(host), "link", "set", self.veth(host), "down")

    def uncut(self, host: str) -> None:
        """The cable back in."""
        ip("-n", self.ns(host), "link", "set", self.veth(host), "up")

    def exec(self, host: str) -> list[str]:
        """The prefix that runs a command on `host`."""
        return ["ip", "netns", "exec", self.ns(host)]

    @contextmanager
    def inside(self, host: str):
        """Run the calling thread in the host's network (setns is per
        thread: the rest of the process stays where it is)."""
        home = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
        there = os.open(f"/run/netns/{self.ns(host)}", os.O_RDONLY)
        try:
            os.setns(there, os.CLONE_NEWNET)
            yield
        finally:
            os.setns(home, os.CLONE_NEWNET)
            os.close(there)
            os.close(home)

    def remove(self) -> None:
        # Deleting a namespace deletes the veth ends in it, and so their peers.
        for name in [self.switch, *map(self.ns, self.addresses)]:
            subprocess.run(["ip", "netns", "del", name], capture_output=True)
