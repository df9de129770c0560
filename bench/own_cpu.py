"""CPU of one bench run's own processes, nobody else's.

The machine is shared: other people's PostgreSQL backends, test servers
and benches run beside ours, so counting every `postgres` process (as
bench/rooms.py once did) measures them too. A `Ledger` follows named
groups of processes, each found afresh at every `sample()` (processes
come and go: a daphne's hint workers, a database backend per connection):

- a process tree: the processes the bench started and their children;
- database backends: the PostgreSQL backends whose `application_name` is
  the run's own tag (the servers get it through libpq's PGAPPNAME, so any
  commit's servers carry it), found in `pg_stat_activity`;
- Redis: one server process shared by everyone; its delta is reported
  apart and labelled shared.

Each process counts from the first time it is seen (its CPU then, or
zero if it started after `start()`) to the last time it was seen, so a
backend that exits mid-run keeps what it had used by the last sample.
"""

import os
from collections.abc import Callable, Iterable
from pathlib import Path

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # exited while listed
            out[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return out


def tree(roots: Iterable[int]) -> list[int]:
    """The processes `roots` and all their descendants, alive now."""
    parents = _parents()
    found = [r for r in roots if r in parents]
    seen = set(found)
    for pid in found:  # grows while read: breadth first
        for child, parent in parents.items():
            if parent == pid and child not in seen:
                seen.add(child)
                found.append(child)
    return found


def named(comm: str) -> list[int]:
    """Processes whose command name is `comm` (e.g. redis-server)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == comm:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


class Ledger:
    """CPU seconds per group of processes between `start()` and the last
    `sample()`."""

    def __init__(self, groups: dict[str, Callable[[], list[int]]]) -> None:
        self.groups = groups
        self.base: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.started = False

    def sample(self) -> None:
        for name, find in self.groups.items():
            for pid in find():
                try:
                    used = cpu_seconds(pid)
                except OSError:
                    continue
                key = (name, pid)
                if key not in self.base:
                    # Before start(): its CPU so far is not the run's; a
                    # process new since then counts from zero.
                    self.base[key] = used if not self.started else 0.0
                self.last[key] = used

    def start(self) -> None:
        self.base.clear()
        self.last.clear()
        self.started = False
        self.sample()
        self.started = True

    def seconds(self) -> dict[str, float]:
        out = dict.fromkeys(self.groups, 0.0)
        for (name, pid), used in self.last.items():
            out[name] += used - self.base[(name, pid)]
        return out
