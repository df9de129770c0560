"""An older commit and this tree side by side: bench/move_cost.py (or
bench/rooms.py, `--bench rooms`), in turns.

The machine is shared, so absolute figures drift with its load; a ratio
of two trees measured in turns, in the same minutes, does not. This
extracts `--base` (a commit, default main) into a temporary folder
(`git archive`: the repository's worktrees are left alone), then runs
this tree's bench/move_cost.py `--runs` times against each tree in
turns (`--code`), with this tree's virtual environment and the
configured database, and prints each run's CPU medians per call and the
ratio this tree / base of their medians. A base whose models differ
from this tree's needs a database migrated to its own schema
(`--base-database`, made with the base's `manage.py migrate` and
`load_layouts`). Extra arguments go to move_cost.py:

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tiles_bench \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    SECRET_KEY="$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')" \\
    .venv/bin/python bench/compare.py --base main --runs 5 -- --mode together

`--bench rooms` compares every figure bench/rooms.py prints (each keyed by
its room count, e.g. cpu_ms_per_move_all_in@200); its players are the
bench's own client, so the base can be any commit:

    .venv/bin/python bench/compare.py --bench rooms --base eade3bc --runs 2 \\
        -- --rooms 20,200 --duration 30
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Each bench: its script and the figures compared (move_cost.py's CPU
# medians per call; rooms.py's figures as it prints them).
BENCHES = {
    "move_cost": (
        "bench/move_cost.py",
        ("take_pair", "apply_due_timers", "timer_look"),
    ),
    # Every figure rooms.py prints (keyed by room count, e.g.
    # ack_ms_p99@200), whichever steps were asked for.
    "rooms": ("bench/rooms.py", None),
}


def extract(commit: str, folder: Path) -> None:
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit],
        check=True,
        capture_output=True,
    ).stdout
    with tempfile.TemporaryFile() as tar:
        tar.write(archive)
        tar.seek(0)
        with tarfile.open(fileobj=tar) as files:
            files.extractall(folder, filter="data")


def run(bench: str, code: Path, extra: list[str], database: str | None) -> dict:
    path, _ = BENCHES[bench]
    script = [sys.executable, str(ROOT / path), "--code", str(code)]
    if bench == "rooms":
        script.append("--json")
    env = {**os.environ, "DATABASE_URL": database} if database else None
    # In the tree measured: Celery's loader puts the working folder first
    # on sys.path, which would mix this tree's apps into an older one.
    done = subprocess.run(
        script + extra, capture_output=True, text=True, cwd=code, env=env
    )
    if done.returncode != 0:
        sys.exit(f"{path} failed on {code}:\n{done.stderr}")
    return json.loads(
        done.stdout.strip().splitlines()[-1] if bench == "rooms" else done.stdout
    )


def numeric(result: dict) -> list[str]:
    """The figures of a result that a ratio can be taken of."""
    return [
        k
        for k, v in result.items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="main")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bench", default="move_cost", choices=sorted(BENCHES))
    parser.add_argument(
        "--base-database", help="DATABASE_URL for the base (default: the same)"
    )
    parser.add_argument("extra", nargs="*", help="arguments for the bench")
    args = parser.parse_args()
    kinds = BENCHES[args.bench][1]
    medians: dict[str, dict[str, list]] = {"base": {}, "head": {}}
    with tempfile.TemporaryDirectory(prefix="bench-base-") as folder:
        extract(args.base, Path(folder))
        trees = {"base": Path(folder), "head": ROOT}
        for n in range(args.runs):
            for name, tree in trees.items():
                database = args.base_database if name == "base" else None
                load = os.getloadavg()[0]
                result = run(args.bench, tree, args.extra, database)
                for kind in kinds or numeric(result):
                    got = result.get(kind)
                    if isinstance(got, dict):  # move_cost.py: a summary
                        got = got.get("median_ms")
                    medians[name].setdefault(kind, []).append(got)
                load = f"{load:.2f}-{os.getloadavg()[0]:.2f}"
                print(f"run {n + 1} {name} (load {load}):", flush=True)
                print(json.dumps(result if kinds is None else medians[name]))
    ratios = {}
    for kind in sorted(medians["head"].keys() & medians["base"].keys()):
        base = [m for m in medians["base"][kind] if m is not None]
        head = [m for m in medians["head"][kind] if m is not None]
        # A figure that is 0 in the base (ack timeouts) has no ratio.
        if base and head and statistics.median(base):
            ratios[kind] = round(statistics.median(head) / statistics.median(base), 3)
    print(json.dumps({"base": args.base, "figures": medians, "head/base": ratios}))
    print("load average now:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print("rerun: .venv/bin/python " + shlex.join(["bench/compare.py", *sys.argv[1:]]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
