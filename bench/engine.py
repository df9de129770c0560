"""Engine benchmark: deal generation, the solver on random deals, hints.

Run from the project root:

    .venv/bin/python bench/engine.py                # 1000 solver seeds
    .venv/bin/python bench/engine.py --quick        # 100 seeds, fewer hints
    .venv/bin/python bench/engine.py --seeds 300 --hints 30 --jobs 2
    .venv/bin/python bench/engine.py --only solver --first-seed 100001
    .venv/bin/python bench/engine.py --only safety --histories 300
    .venv/bin/python bench/engine.py --only safety --first-history 10001 --base main

The solver part uses random Turtle deals (faces shuffled onto the spots with
no construction, games.engine.randomdeal), seeds 1..N: about 3% of them
cannot be cleared, and those make the slow tail. The solver was tuned on
seeds 1..1000; --first-seed measures it on seeds it was never tuned on.

The safety part (back to safety and where it turned: one engine call,
games.engine.safety.find_safety) runs on histories of random play on
constructed Turtle deals, each to where random play gets stuck, and asked
at the end (where it turned) and at a random point (back to safety); with
the deal's witness, as a run without shuffles has it, and without.
--base REV asks safety.py as it is at that git revision the same questions,
in turns with this tree's, for a ratio measured in the same minutes; the
code was tuned on histories 1..160, so --first-history 10001 measures it on
histories it never saw.

--jobs spreads the seeds over processes; keep it at 1 on a shared machine,
or timings suffer.
"""

import argparse
import statistics
import subprocess
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.board import Board  # noqa: E402
from games.engine.catalogue import get_layout  # noqa: E402
from games.engine.deal import generate_deal  # noqa: E402
from games.engine.randomdeal import played_at_random, random_position  # noqa: E402
from games.engine.rng import Rng  # noqa: E402
from games.engine.safety import SAFETY_NODES, find_safety  # noqa: E402
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


def bench_solver(seeds: int, jobs: int, first: int = 1) -> None:
    last = first + seeds - 1
    print(f"Solver on random Turtle deals, seeds {first}..{last} (jobs={jobs})")
    rows = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else _Serial() as pool:
        for row in pool.map(solve_seed, range(first, last + 1)):
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


def random_history(seed: int):
    """A constructed Turtle deal and random free pairs taken until none is
    left: what a careless player's lost game looks like."""
    layout = get_layout("turtle")
    deal = generate_deal(layout, seed)
    board, rng, moves = Board(layout, deal.faces), Rng("bench-safety", seed), []
    while pairs := board.free_pairs():
        pair = rng.choice(pairs)
        board.take(*pair)
        moves.append(pair)
    return deal, moves, rng


def safety_of(rev: str):
    """games/engine/safety.py as it is at git revision `rev`, loaded as a
    module of its own beside this tree's (its imports are this tree's)."""
    source = subprocess.run(
        ["git", "show", f"{rev}:games/engine/safety.py"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    ).stdout
    module = types.ModuleType(f"safety_at_{rev}")
    exec(compile(source, f"{rev}:games/engine/safety.py", "exec"), module.__dict__)
    return module


def bench_safety(histories: int, first: int = 1, base: str | None = None) -> None:
    last = first + histories - 1
    print(
        f"Back to safety / where it turned on histories {first}..{last} of random"
        f" play (budget {SAFETY_NODES} nodes)"
        + (f", this tree and {base} in turns" if base else "")
    )
    trees = {"this tree": find_safety}
    if base:
        trees[base] = safety_of(base).find_safety
    cases: dict[tuple[str, str], list[tuple[float, bool, int]]] = {}
    reference = []
    for seed in range(first, last + 1):
        # The machine is shared: the solver's own figure, timed in the same
        # loop, says how loaded it was (PERFORMANCE.md has the idle ones).
        start = time.perf_counter()
        solve(random_position(get_layout("turtle"), seed))
        reference.append((time.perf_counter() - start) * 1000)
        deal, moves, rng = random_history(seed)
        cut = moves[: 1 + rng.below(len(moves))] if moves else moves
        for label, history in (("at the end", moves), ("partway", cut)):
            for witness in (deal.solution, ()):
                key = f"{label}, {'with' if witness else 'no'} witness"
                for tree, find in trees.items():
                    start = time.perf_counter()
                    found = find(deal.layout, deal.faces, history, witness)
                    ms = (time.perf_counter() - start) * 1000
                    row = (ms, found.exact, found.nodes)
                    cases.setdefault((key, tree), []).append(row)
                    cases.setdefault(("every request", tree), []).append(row)
    ref99 = quantile(reference, 0.99)
    for (key, tree), rows in sorted(cases.items(), key=lambda c: c[0][0]):
        ms = [r[0] for r in rows]
        hit = sum(1 for r in rows if not r[1])
        print(
            f"  {key:26} {tree:10} p50 {statistics.median(ms):6.1f} ms"
            f"  p99 {quantile(ms, 0.99):6.1f} ms ({quantile(ms, 0.99) / ref99:.2f}x)"
            f"  max {max(ms):6.1f} ms  budget ran out {hit}/{len(rows)}"
            f"  nodes p99 {quantile([r[2] for r in rows], 0.99):.0f}"
        )
    print(
        f"  {'reference: solver, seeds':37} p50 {statistics.median(reference):6.1f} ms"
        f"  p99 {ref99:6.1f} ms  max {max(reference):6.1f} ms"
        f"  (random Turtle deals {first}..{last}, timed alongside; the x figures"
        " above are p99 over this p99)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--hints", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--histories", type=int, default=200)
    parser.add_argument("--first-history", type=int, default=1)
    parser.add_argument(
        "--base", default=None, help="also time safety.py of this git revision"
    )
    parser.add_argument(
        "--only", choices=("deals", "solver", "hints", "safety"), default=None
    )
    parser.add_argument("--quick", action="store_true", help="100 seeds, 30 hints")
    args = parser.parse_args()
    seeds = 100 if args.quick else args.seeds
    wanted = {args.only} if args.only else {"deals", "solver", "hints", "safety"}
    if "deals" in wanted:
        bench_deals(50 if args.quick else 200)
    if "solver" in wanted:
        bench_solver(seeds, args.jobs, args.first_seed)
    if "hints" in wanted:
        bench_hints(30 if args.quick else args.hints)
    if "safety" in wanted:
        histories = 30 if args.quick else args.histories
        bench_safety(histories, args.first_history, args.base)
    print(
        "Rerun: .venv/bin/python bench/engine.py"
        " [--seeds N] [--hints N] [--histories N] [--first-seed S]"
        " [--only PART] [--quick] [--jobs J] [--first-history S] [--base REV]"
    )


if __name__ == "__main__":
    main()
