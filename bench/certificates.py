"""How many lost positions get a certificate (docs/certificates.md).

Run from the project root:

    .venv/bin/python bench/certificates.py --base main           # seeds 1..30
    .venv/bin/python bench/certificates.py --base main --first-seed 1001
    .venv/bin/python bench/certificates.py --deals 1000          # full Turtle

Late positions: on Small and Turtle, a constructed deal's last 2 to 9 pairs
with their faces reshuffled (tests/test_solver.py's late_random_position);
brute force says which are lost, and each certificate found is checked.
--base loads games/engine/certificate.py from that git ref as well and
counts both in the same run. --deals solves random Turtle deals 1..N and
times finding and checking a certificate for the ones that cannot be
cleared (the solver takes minutes over 1000 deals).
"""

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.setrecursionlimit(10_000)

from games.engine import certificate  # noqa: E402
from games.engine.board import Board  # noqa: E402
from games.engine.catalogue import get_layout  # noqa: E402
from games.engine.randomdeal import random_position  # noqa: E402
from games.engine.solver import solve  # noqa: E402
from tests.test_solver import (  # noqa: E402
    clearing_by_brute_force,
    late_random_position,
)


def tiles_of(board: Board) -> list[dict]:
    return [
        {"id": i, "x": x, "y": y, "z": z, "face": board.faces[i]}
        for i, (x, y, z) in enumerate(board.layout.positions)
        if board.is_standing(i)
    ]


def module_at(ref: str) -> ModuleType:
    """games/engine/certificate.py as it is at a git ref."""
    source = subprocess.run(
        ["git", "show", f"{ref}:games/engine/certificate.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "certificate_base.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("certificate_base", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def late(first: int, count: int, modules: dict[str, ModuleType]) -> None:
    lost = 0
    proved = dict.fromkeys(modules, 0)
    spent = dict.fromkeys(modules, 0.0)
    for slug in ("small", "turtle"):
        for seed in range(first, first + count):
            for left in range(2, 10):
                board = late_random_position(slug, seed, left)
                is_lost = clearing_by_brute_force(board.copy(), set()) is None
                lost += is_lost
                for name, module in modules.items():
                    start = time.perf_counter()
                    cert = module.find_certificate(board)
                    spent[name] += time.perf_counter() - start
                    if cert is None:
                        continue
                    assert is_lost, (slug, seed, left)
                    module.check_certificate(tiles_of(board), cert)
                    proved[name] += 1
    print(f"late positions, seeds {first}..{first + count - 1}: {lost} lost")
    for name in modules:
        print(f"  {name}: {proved[name]} certified, finding {spent[name]:.2f} s")


def deals(count: int) -> None:
    layout = get_layout("turtle")
    impossible = proved = 0
    for seed in range(1, count + 1):
        board = random_position(layout, seed)
        result = solve(board)
        if result.solvable is not False:
            continue
        impossible += 1
        start = time.perf_counter()
        cert = certificate.find_certificate(board)
        found = time.perf_counter() - start
        line = f"  seed {seed}: solver {result.nodes} nodes {result.ms:.0f} ms"
        if cert is not None:
            proved += 1
            start = time.perf_counter()
            certificate.check_certificate(tiles_of(board), cert)
            checked = time.perf_counter() - start
            line += (
                f"; {cert['rule']} found in {found * 1e3:.0f} ms, "
                f"checked in {checked * 1e3:.1f} ms"
            )
        else:
            line += f"; none, {found * 1e3:.0f} ms"
        print(line)
    print(f"Turtle deals 1..{count}: {proved} of {impossible} impossible certified")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--base", help="git ref to count side by side")
    parser.add_argument("--deals", type=int, default=0)
    opts = parser.parse_args()
    if opts.deals:
        deals(opts.deals)
        return
    modules = {"this tree": certificate}
    if opts.base:
        modules[opts.base] = module_at(opts.base)
    late(opts.first_seed, opts.seeds, modules)


if __name__ == "__main__":
    main()
