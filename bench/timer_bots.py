"""What the bots' own moves cost: the race rules alone, no database.

Plays `--races` races of three bots (easy, medium and hard) on the Turtle (a Big pile)
to the end, calling `race.run_due` at each next wake-up as the timer
process does, and prints the CPU time per bot move and a fingerprint of
every move made and every think time drawn: a change that keeps the bots
playing as they did keeps the fingerprint (the same choices, the same
think times), so one run of each tree tells both the speed and that.

    .venv/bin/python bench/timer_bots.py [--races 20] [--repeat 3]
"""

import argparse
import hashlib
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from games.engine.catalogue import get_layout  # noqa: E402
from games.engine.deal import generate_deal  # noqa: E402
from rooms import race  # noqa: E402

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
SEATS = [(1, "Easy", "easy"), (2, "Medium", "medium"), (3, "Hard", "hard")]


def dealt(seed: str) -> race.Race:
    deal = generate_deal(get_layout("turtle"), seed)
    witness = tuple(tuple(sorted(p)) for p in deal.solution)
    return race.deal(deal.layout, deal.faces, seed, SEATS, 0, T0, witness)


def play(state: race.Race, trail: "hashlib._Hash") -> tuple[int, float]:
    """Bot moves made and CPU seconds spent in `run_due` until the race
    ends; every state's racers go into `trail`."""
    moves, spent = 0, 0.0
    while (wake := race.wake_at(state)) is not None:
        start = time.process_time()
        after = race.run_due(state, wake)
        spent += time.process_time() - start
        moves += sum(
            len(a.steps) != len(b.steps) or a.status != b.status
            for a, b in zip(state.racers, after.racers, strict=True)
        )
        for r in after.racers:
            trail.update(repr((r.seat, r.steps, r.status, r.bot_at_ms)).encode())
        state = after
    return moves, spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3, help="rounds, best kept")
    args = parser.parse_args()
    races = [dealt(f"timer-bots-{k}") for k in range(args.races)]
    per_move = []
    for _ in range(args.repeat):
        trail = hashlib.sha256()
        moves, spent = 0, 0.0
        for state in races:
            made, cpu = play(state, trail)
            moves, spent = moves + made, spent + cpu
        per_move.append(1000 * spent / moves)
    print(f"bot moves {moves}, CPU a bot move ms: min {min(per_move):.4f}", end="")
    print(f", median {statistics.median(per_move):.4f}")
    print(f"fingerprint {trail.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
