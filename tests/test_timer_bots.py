"""Bots play a race the same from one version to the next: the same pairs
at the same moments, the same shuffles and the same think times, as the
timer process applies them. A change made for speed must keep them; one
that means to change how bots play updates the record below."""

import dataclasses
import hashlib

from games.engine.catalogue import get_layout
from games.engine.deal import generate_deal
from rooms import race
from tests.race_helpers import T0

SEATS = [(1, "Easy", "easy"), (2, "Medium", "medium"), (3, "Hard", "hard")]
FIELDS = [f.name for f in dataclasses.fields(race.Racer)]

# Digests of the racers after each of the timer's calls, by pile, as the
# bots played before the timer was made faster (Turtle's easy bot shuffles
# once; bench/timer_bots.py times such races).
RECORDED = {
    "small": "2cc7a6477da3f636",
    "turtle": "e9c8d0b80b511b15",
}


def played(slug: str, seed: str) -> tuple[race.Race, str]:
    """A race of three bots, the timer called at each next wake-up until it
    ends: the last state, and a digest of every state on the way."""
    deal = generate_deal(get_layout(slug), seed)
    witness = tuple(tuple(sorted(p)) for p in deal.solution)
    state = race.deal(deal.layout, deal.faces, seed, SEATS, 0, T0, witness)
    trail = hashlib.sha256()
    while (wake := race.wake_at(state)) is not None:
        state = race.run_due(state, wake)
        for r in state.racers:
            trail.update(repr((r.seat, r.steps, r.status, r.bot_at_ms)).encode())
    return state, trail.hexdigest()[:16]


def test_bots_race_move_for_move_as_recorded():
    for slug, recorded in RECORDED.items():
        state, digest = played(slug, f"bots-{slug}")
        assert state.status == race.OVER
        assert digest == recorded, slug


def test_every_bot_move_comes_at_its_think_time():
    state, _ = played("small", "bots-small")
    easy, medium, hard = state.racers
    for racer, level in ((easy, "easy"), (medium, "medium"), (hard, "hard")):
        times = [ms for ms, _, _ in racer.steps]
        gaps = [b - a for a, b in zip([0, *times], times, strict=False)]
        low, _ = race.bots.PACES[level].think_ms
        assert min(gaps) >= low, level
    assert hard.status == race.CLEARED


def test_a_moved_racer_counts_as_one_read_from_its_log():
    """A racer's counts after a move (its matches, when it reached them, the
    tiles gone) are those of the same racer rebuilt from its fields, as the
    next read of its row makes it: across shuffles, and the clearing move."""
    deal = generate_deal(get_layout("turtle"), "bots-turtle")
    witness = tuple(tuple(sorted(p)) for p in deal.solution)
    state = race.deal(deal.layout, deal.faces, "bots-turtle", SEATS, 0, T0, witness)
    while (wake := race.wake_at(state)) is not None:
        state = race.run_due(state, wake)
        for moved in state.racers:
            read = race.Racer(**{f: getattr(moved, f) for f in FIELDS})
            assert moved.matches == read.matches
            assert moved.reached_ms == read.reached_ms
            assert moved.standing(state.layout) == read.standing(state.layout)
    assert state.status == race.OVER
    assert any(r.shuffles for r in state.racers)
