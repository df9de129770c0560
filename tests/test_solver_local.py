"""The local search over pairings: what it finds replays; it never claims
more than a clearing, and the same call gives the same steps."""

import json
from pathlib import Path

from games.engine import solver_local
from games.engine.board import Board, iter_bits
from games.engine.catalogue import get_layout
from games.engine.formats import position_from_json
from games.engine.randomdeal import random_position
from games.engine.solver import solve
from games.engine.solver_local import Pairings, PairingSearch
from tests.engine_helpers import board_of, replay

CASES = Path(__file__).parent / "fixtures" / "cases"
# The solver's plain attempts take about 67,000 nodes on seed019; the local
# search, even with no pairing ruled out, a few hundred steps.
HARD_CLEARABLE = "turtle-random-seed019.json"
UNCLEARABLE = "turtle-random-seed251.json"


def every_pairing(board: Board) -> list[Pairings]:
    """Each group's pairings, none ruled out: what the search is given with
    no help from the solver's pruning."""
    groups: dict[int, list[int]] = {}
    for t in iter_bits(board.standing):
        groups.setdefault(board.groups[t], []).append(t)
    domains = []
    for g in sorted(groups):
        tiles = groups[g]
        if len(tiles) == 2:
            domains.append([((tiles[0], tiles[1]),)])
        else:
            a, b, c, d = tiles
            domains.append([((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))])
    return domains


def case_board(name: str) -> Board:
    return position_from_json(json.loads((CASES / name).read_text())).board


def test_finds_a_clearing_of_a_hard_case_that_replays():
    board = case_board(HARD_CLEARABLE)
    search = PairingSearch(board.layout, board.standing, every_pairing(board), 1)
    found = search.run(2000)
    assert found is not None
    assert replay(board, found).cleared


def test_finds_nothing_on_an_unclearable_case():
    board = case_board(UNCLEARABLE)
    search = PairingSearch(board.layout, board.standing, every_pairing(board), 1)
    assert search.run(300) is None


def test_resumes_where_it_stopped_and_repeats_itself():
    """Steps run in slices give what one run gives; a second search with the
    same seed takes the same steps."""
    board = random_position(get_layout("turtle"), 20)
    domains = every_pairing(board)
    whole = PairingSearch(board.layout, board.standing, domains, "x")
    sliced = PairingSearch(board.layout, board.standing, domains, "x")
    found = whole.run(3000)
    for _ in range(300):
        again = sliced.run(10)
        if again is not None:
            break
    assert found == again
    assert whole.step == sliced.step
    assert replay(board, found).cleared


def test_a_position_with_only_wrong_pairings_is_never_cleared():
    """Two groups in one row, each paired across the other: stuck at once,
    and no step can change that, so every slice answers None."""
    board = board_of(
        (0, 0, 0, "dots-1"),
        (2, 0, 0, "dots-2"),
        (4, 0, 0, "dots-1"),
        (6, 0, 0, "dots-2"),
    )
    domains = [[((0, 2),)], [((1, 3),)]]
    search = PairingSearch(board.layout, board.standing, domains, 0)
    assert search.run(50) is None


def test_the_solver_clears_an_undecided_seed_of_before_with_a_replay():
    """Seed 20 was left undecided at 200,000 nodes by the attempts alone."""
    board = random_position(get_layout("turtle"), 20)
    result = solve(board, max_nodes=30_000)
    assert result.solvable is True
    assert replay(board, result.solution).cleared


def test_the_closure_keeps_the_free_tiles_exact():
    """What a pair's removal frees is remembered by what stands near it; the
    free mask it keeps must still be exactly the free tiles, at every move of
    the closure and after every step, and its moves must replay to what it
    leaves. The pairs it notes as ready at each move (where a trial change
    resumes) must be every pair of free tiles then, and only those; and a
    step, which works the closure out again from the changed group's first
    move only, must leave what a closure from the start leaves."""
    board = random_position(get_layout("turtle"), 88)
    layout = board.layout
    search = PairingSearch(layout, board.standing, every_pairing(board), 3)
    partner = search.partner
    for _ in range(150):
        if search.run(1) is not None:
            break
        assert search.now_free == layout.free_mask(search.now)
        for standing, free, ready in search.before:
            assert free == layout.free_mask(standing)
            open_pairs = {
                frozenset((t, partner[t]))
                for t in iter_bits(free & standing)
                if free >> partner[t] & 1
            }
            noted = {frozenset((t, partner[t])) for t in iter_bits(ready & standing)}
            assert noted == open_pairs
        assert replay(board, search.order).standing == search.now
        ready = search._ready(board.standing, search.free)
        assert search._close(board.standing, search.free, ready)[0] == search.now


def test_a_step_improves_when_some_change_does(monkeypatch):
    """With no random steps, a step from a fresh start (where most changes
    leave fewer tiles) takes a change that leaves fewer tiles than before."""
    monkeypatch.setattr(solver_local, "RANDOM_PERCENT", 0)
    board = random_position(get_layout("turtle"), 141)
    checked = 0
    for seed in range(10):
        search = PairingSearch(board.layout, board.standing, every_pairing(board), seed)
        here = search.now.bit_count()
        changes = search._changes()
        if not changes or min(search._left_after(g, c) for g, c in changes) >= here:
            continue
        assert search.run(1) is None
        assert search.now.bit_count() < here
        checked += 1
    assert checked >= 5


def test_it_starts_from_tiles_paired_by_depth():
    """Two tiles each on top of another, all four alike: pairing the two on
    top together (and the two under) clears at once, and that is the
    pairing the search starts from, whatever its seed (the other two leave
    every tile)."""
    board = board_of(
        (0, 0, 0, "dots-1"),
        (4, 0, 0, "dots-1"),
        (0, 0, 1, "dots-1"),
        (4, 0, 1, "dots-1"),
    )
    for seed in range(10):
        search = PairingSearch(board.layout, board.standing, every_pairing(board), seed)
        found = search.run(0)
        assert found is not None
        assert replay(board, found).cleared


def test_every_other_run_starts_from_the_best_assignment_with_a_few_changes():
    """The second run after the first starts from the best assignment seen,
    with at most KICK groups changed, each a group of a tile it left
    standing (the first after it from random pairings)."""
    board = random_position(get_layout("turtle"), 88)
    changed = 0
    for seed in range(5):
        search = PairingSearch(board.layout, board.standing, every_pairing(board), seed)
        if search.run(30) is not None:
            continue
        search._restart()
        best, left = list(search.elite), search.elite_left
        assert left.bit_count() <= search.now.bit_count()
        search._restart()
        moved = [g for g, c in enumerate(search.choice) if c != best[g]]
        assert len(moved) <= solver_local.KICK
        stuck = {search.group_of[t] for t in iter_bits(left)}
        assert set(moved) <= stuck
        changed += bool(moved)
    assert changed >= 3
