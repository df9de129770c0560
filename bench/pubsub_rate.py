"""Messages through sitewide.pubsub with Redis, and this process's CPU a
message, for this tree's pubsub.py and another commit's, in turns.

- publish: `pubsub.publish` of one room message at a time, `--burst` of
  them at once (a loop's Publisher sends what comes meanwhile together).
- read: a process's fan-out subscribed to `--groups` groups, a listener
  on each; another process publishes `--messages` messages over them at
  `--rate` a second (its CPU is not counted). Checks each arrived once, in
  the order sent.

Each figure is the median of `--runs` turns; the ratio is this tree / base.
The machine is shared: run both sides in one sitting, as this does.

    REDIS_URL=redis://127.0.0.1:6379/0 SECRET_KEY=x \\
    .venv/bin/python bench/pubsub_rate.py --base main --runs 5
"""

import argparse
import asyncio
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

# A room's events as a socket is sent them (about the size of one move's).
TEXT = json.dumps(
    {
        "type": "events",
        "events": [
            {"v": 7, "kind": "pair", "data": {"seat": 2, "tiles": [31, 87]}},
            {"v": 8, "kind": "score", "data": {"seat": 2, "score": 1234}},
        ],
    }
)

# The other process: the file's [channel, payload] lines, published in
# pipelines of 20 at `rate` messages a second once it said it is ready.
PUBLISHER = """
import json, sys, time
import redis
url, rate, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
with open(path) as file:
    sends = [json.loads(line) for line in file]
client = redis.Redis.from_url(url)
client.ping()
print("ready", flush=True)
start = time.monotonic()
for i in range(0, len(sends), 20):
    pause = start + i / rate - time.monotonic()
    if pause > 0:
        time.sleep(pause)
    pipe = client.pipeline(transaction=False)
    for channel, payload in sends[i : i + 20]:
        pipe.publish(channel, payload)
    pipe.execute()
"""


def load(name: str, source: str) -> ModuleType:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as file:
        file.write(source)
    spec = importlib.util.spec_from_file_location(name, file.name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def message(group: str, n: int) -> dict:
    return {"type": "room.events", "group": group, "text": TEXT, "last": n}


async def publishing(pubsub: ModuleType, count: int, burst: int) -> tuple[float, float]:
    """CPU µs a message and messages a second, publishing."""
    group = f"bench.{os.getpid()}.nobody"
    await pubsub.publish([message(group, 0)])  # connected
    cpu, wall = time.process_time(), time.perf_counter()
    for start in range(0, count, burst):
        await asyncio.gather(
            *(pubsub.publish([message(group, n)]) for n in range(start, start + burst))
        )
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu / count * 1e6, count / wall


async def reading(
    pubsub: ModuleType, count: int, groups: int, rate: float
) -> tuple[float, float]:
    """CPU µs a message and messages a second, reading."""
    names = [f"bench.{os.getpid()}.{g}" for g in range(groups)]
    got: list[int] = []
    all_in = asyncio.Event()

    async def listener(m: dict) -> None:
        got.append(m["last"])
        if len(got) == count:
            all_in.set()

    fanout = pubsub.fanout()
    for name in names:
        await fanout.join(name, "bench", listener)
    address, _, prefix = pubsub._redis_config()
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as sends:
        for n in range(count):
            group = names[n % groups]
            print(
                json.dumps([prefix + group, pubsub.encode(message(group, n))]),
                file=sends,
            )
        sends.flush()
        publisher = await asyncio.create_subprocess_exec(
            *(sys.executable, "-c", PUBLISHER, address, str(rate), sends.name),
            stdout=subprocess.PIPE,
        )
        assert publisher.stdout is not None
        assert await publisher.stdout.readline() == b"ready\n"
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.wait_for(all_in.wait(), 30)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        await publisher.wait()
    for name in names:
        await fanout.leave(name, "bench")
    assert got == list(range(count)), "messages lost or out of order"
    return cpu / count * 1e6, count / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="main", help="commit to compare with")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--burst", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--groups", type=int, default=50)
    parser.add_argument("--rate", type=float, default=10000)
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        sys.exit("REDIS_URL is needed: this measures Redis pub/sub")
    django.setup()
    base_source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{args.base}:sitewide/pubsub.py"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    trees = {
        "base": load("pubsub_base", base_source),
        "head": load("pubsub_head", (ROOT / "sitewide/pubsub.py").read_text()),
    }
    figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    for _ in range(args.runs):
        for tree, pubsub in trees.items():
            for burst in args.burst:
                key = (f"publish burst {burst}", tree)
                figure = asyncio.run(publishing(pubsub, args.messages, burst))
                figures.setdefault(key, []).append(figure)
            key = (f"read {args.rate:.0f}/s", tree)
            figure = asyncio.run(reading(pubsub, args.messages, args.groups, args.rate))
            figures.setdefault(key, []).append(figure)
    print("load average:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(
        f"{'':24} {'base µs/msg':>12} {'head µs/msg':>12} {'ratio':>6}"
        "  msgs/s base, head"
    )
    for what in dict.fromkeys(what for what, _ in figures):
        base, head = (
            [statistics.median(f[i] for f in figures[what, tree]) for i in (0, 1)]
            for tree in ("base", "head")
        )
        print(
            f"{what:24} {base[0]:12.1f} {head[0]:12.1f} {head[0] / base[0]:6.2f}"
            f"  {base[1]:,.0f}, {head[1]:,.0f}"
        )


if __name__ == "__main__":
    main()
