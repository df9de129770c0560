"""Seeded deal generation: deterministic, whole pairs, clearable by witness."""

import json
import os
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.board import Board
from games.engine.catalogue import builtin_layouts, get_layout
from games.engine.deal import DealError, generate_deal
from games.engine.faces import REGULAR_FACES, check_composition, full_set, group_of
from games.engine.formats import deal_to_json

seeds = st.one_of(st.integers(min_value=0, max_value=10**12), st.text(max_size=20))


def replay(deal) -> Board:
    board = Board(deal.layout, deal.faces)
    for a, b in deal.solution:
        board.take(a, b)  # raises if the witness takes an illegal pair
    return board


@settings(max_examples=60, deadline=None)
@given(slug=st.sampled_from(sorted(builtin_layouts())), seed=seeds)
def test_every_deals_witness_clears_it(slug, seed):
    deal = generate_deal(get_layout(slug), seed)
    assert replay(deal).cleared
    check_composition(list(deal.faces))


def test_a_turtle_deal_is_the_full_set():
    deal = generate_deal(get_layout("turtle"), "2026-11-30")
    assert sorted(deal.faces) == sorted(full_set())


def test_small_deals_draw_sixteen_pairs_that_change_from_deal_to_deal():
    small = get_layout("small")
    kinds = set()
    for seed in range(20):
        faces = generate_deal(small, seed).faces
        assert len(faces) == 32
        check_composition(list(faces))
        kinds.add(frozenset(faces))
    assert len(kinds) == 20


@pytest.mark.parametrize("quads", [0, 4, 8])
def test_the_difficulty_knob_sets_how_many_faces_come_as_four(quads):
    deal = generate_deal(get_layout("small"), 5, quads=quads)
    groups = Counter(group_of(f) for f in deal.faces)
    assert sum(1 for n in groups.values() if n == 4) == quads
    assert all(n in (2, 4) for n in groups.values())
    assert replay(deal).cleared


def test_the_knob_refuses_what_cannot_fit():
    with pytest.raises(DealError, match="do not fit"):
        generate_deal(get_layout("small"), 1, quads=9)


def test_the_same_seed_gives_the_same_deal_and_others_differ():
    turtle = get_layout("turtle")
    assert generate_deal(turtle, 7) == generate_deal(turtle, 7)
    assert generate_deal(turtle, 7).faces != generate_deal(turtle, 8).faces
    # The integer 7 and the string "7" are different seeds.
    assert generate_deal(turtle, 7).faces != generate_deal(turtle, "7").faces


def test_the_same_deal_comes_out_in_other_processes():
    """Byte for byte, whatever the hash seed of the process."""
    script = (
        "import json; from games.engine.catalogue import get_layout;"
        "from games.engine.deal import generate_deal;"
        "from games.engine.formats import deal_to_json;"
        "print(json.dumps(deal_to_json(generate_deal(get_layout('turtle'), 'x'))))"
    )
    here = json.dumps(deal_to_json(generate_deal(get_layout("turtle"), "x")))
    for hash_seed in ("1", "2", "random"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == here


def test_a_known_deal_never_changes():
    """A fixed fingerprint: changing the generator changes every stored deal."""
    deal = generate_deal(get_layout("small"), 1)
    assert deal.faces[:4] == FIRST_FOUR_SMALL_SEED_1
    assert all(f in REGULAR_FACES or f[:6] in ("flower", "season") for f in deal.faces)


FIRST_FOUR_SMALL_SEED_1 = ("bamboo-5", "dots-4", "characters-3", "wind-north")
