"""Engine benchmark: deal generation, the solver on random deals, hints.

Run from the project root:

    .venv/bin/python bench/engine.py                # 1000 solver seeds
    .venv/bin/python bench/engine.py --quick        # 100 seeds, fewer hints
    .venv/bin/python bench/engine.py --seeds 300 --hints 30 --jobs 2

The solver part uses random Turtle deals (faces shuffled onto the spots with
no construction, games.engine.randomdeal), seeds 1..N: about 3% of them
cannot be cleared, and those make the slow tail. --jobs spreads the seeds
over processes; keep it at 1 on a shared machine, or timings suffer.
"""

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.catalogue import get_layout  # noqa: E402
from games.engine.deal import generate_deal  # noqa: E402
from games.engine.randomdeal import played_at_random, random_position  # noqa: E402
from games.engine.solver import DEFAULT_MAX_NODES, solve  # noqa: E402


class _Serial:
    """Stands in for a process pool when --jobs is 1."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def map(self, fn, items):
        return map(fn, items)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_deals(seeds: int) -> None:
    print(f"Deal generation ({seeds} seeds per layout)")
    for slug in ("turtle", "small"):
        layout = get_layout(slug)
        times = []
        for seed in range(1, seeds + 1):
            start = time.perf_counter()
            generate_deal(layout, seed)
            times.append((time.perf_counter() - start) * 1000)
        print(
            f"  {slug:7} mean {statistics.fmean(times):6.2f} ms"
            f"   max {max(times):6.2f} ms"
        )


def solve_seed(seed: int) -> tuple[int, bool | None, float, int]:
    board = random_position(get_layout("turtle"), seed)
    result = solve(board)
    if result.solvable:
        check = board.copy()
        for a, b in result.solution:
            check.take(a, b)
        assert check.cleared, f"seed {seed}: solution does not clear"
    return seed, result.solvable, result.ms, result.nodes


def bench_solver(seeds: int, jobs: int) -> None:
    print(f"Solver on random Turtle deals, seeds 1..{seeds} (jobs={jobs})")
    rows = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else _Serial() as pool:
        for row in pool.map(solve_seed, range(1, seeds + 1)):
            rows.append(row)
            if len(rows) % 100 == 0:
                undecided = sum(1 for r in rows if r[1] is None)
                print(
                    f"  ... {len(rows)} seeds, {undecided} undecided so far",
                    file=sys.stderr,
                    flush=True,
                )
    decided = [r for r in rows if r[1] is not None]
    ms = [r[2] for r in rows]
    nodes = [r[3] for r in rows]
    print(
        f"  decided {len(decided)}/{len(rows)} "
        f"({100 * len(decided) / len(rows):.1f}%, limit {DEFAULT_MAX_NODES} nodes):"
        f" {sum(1 for r in rows if r[1])} clearable,"
        f" {sum(1 for r in rows if r[1] is False)} not"
    )
    for label, values, unit in (("time", ms, "ms"), ("nodes", nodes, "")):
        print(
            f"  {label:5}  median {statistics.median(values):9.1f}"
            f"  p90 {quantile(values, 0.90):9.1f}"
            f"  p99 {quantile(values, 0.99):9.1f}"
            f"  max {max(values):9.1f} {unit}"
        )
    slow = sorted(rows, key=lambda r: -r[2])[:5]
    print("  slowest: " + ", ".join(f"seed {s} {t:.0f} ms" for s, _, t, _ in slow))


def bench_hints(positions: int) -> None:
    try:
        from games.engine.hint import hint
    except ImportError:
        print("Hints: games.engine.hint is not there yet; skipped")
        return
    print(f"Hints on {positions} positions from partway through random play")
    layout = get_layout("turtle")
    times = []
    answers = {True: 0, False: 0, None: 0}
    for seed in range(1, positions + 1):
        board = played_at_random(layout, seed)
        start = time.perf_counter()
        answers[hint(board).clearable] += 1
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"  median {statistics.median(times):.1f} ms"
        f"   p90 {quantile(times, 0.9):.1f} ms   p99 {quantile(times, 0.99):.1f} ms"
        f"   max {max(times):.1f} ms"
    )
    print(
        f"  {answers[True]} keep the pile clearable, {answers[False]} on piles"
        f" that cannot be cleared, {answers[None]} unverified"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--hints", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="100 seeds, 30 hints")
    args = parser.parse_args()
    seeds = 100 if args.quick else args.seeds
    bench_deals(50 if args.quick else 200)
    bench_solver(seeds, args.jobs)
    bench_hints(30 if args.quick else args.hints)
    print(
        "Rerun: .venv/bin/python bench/engine.py"
        " [--seeds N] [--hints N] [--quick] [--jobs J]"
    )


if __name__ == "__main__":
    main()
