"""Back to safety and where it turned: the latest clearable position of a
history, exact or honestly undecided, checked against brute force."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.board import Board
from games.engine.catalogue import get_layout
from games.engine.deal import generate_deal
from games.engine.layout import Layout
from games.engine.rng import Rng
from games.engine.safety import find_safety, position
from games.engine.solver import solve
from tests.engine_helpers import replay
from tests.test_solver import clearing_by_brute_force, late_random_position

FOURS = ["dots-1", "bamboo-2", "wind-east", "dragon-red", "characters-9"]


def small_history(slug: str, seed: int, left: int, stop: float):
    """A pile of 2 * left tiles, the spots a deal leaves near its end, with
    faces dealt at random as all four copies of a few faces (so it may not
    clear at all, and pairings can go wrong), and a history of free pairs
    taken from it, cut short at `stop` of the way to where play ends. The
    player is careless: every other pair is one that loses the pile, when
    one does (random play alone rarely loses a pile this small)."""
    late = late_random_position(slug, seed, left)
    spots = [i for i in range(len(late.faces)) if late.is_standing(i)]
    positions = tuple(late.layout.positions[i] for i in spots)
    layout = Layout(slug="late", name="late", positions=positions)
    rng, moves = Rng("safety-test", seed), []
    faces = [FOURS[k // 4] for k in range(2 * left)]
    rng.shuffle(faces)
    board = Board(layout, tuple(faces))
    while pairs := board.free_pairs():
        pair = rng.choice(pairs)
        if rng.below(2) == 0:
            pair = next((p for p in pairs if losing(board, p)), pair)
        board.take(*pair)
        moves.append(pair)
    return layout, board.faces, moves[: round(stop * len(moves))]


def losing(board: Board, pair) -> bool:
    after = board.copy()
    after.take(*pair)
    return clearing_by_brute_force(after, set()) is None


def truth(layout: Layout, faces, moves) -> list[bool]:
    """Whether each position of the history clears, by trying every order."""
    return [
        clearing_by_brute_force(position(layout, faces, moves[:i]), set()) is not None
        for i in range(len(moves) + 1)
    ]


HISTORIES = {
    "slug": st.sampled_from(["small", "turtle"]),
    "seed": st.integers(0, 10**6),
    "left": st.integers(2, 9),
    "stop": st.sampled_from([1.0, 1.0, 0.5, 0.8]),
}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**HISTORIES)
def test_back_to_safety_lands_on_the_latest_clearable_position(slug, seed, left, stop):
    """Exact: the position it names clears (by a replay of its clearing on a
    fresh board), and no later position of the history does."""
    layout, faces, moves = small_history(slug, seed, left, stop)
    found = find_safety(layout, faces, moves)
    clears = truth(layout, faces, moves)
    assert found.exact
    latest = max((i for i, ok in enumerate(clears) if ok), default=-1)
    assert found.safe == latest
    assert not any(clears[latest + 1 :])
    if latest >= 0:
        assert replay(position(layout, faces, moves[:latest]), found.clearing).cleared
        assert found.pairs_back == len(moves) - latest
    if latest == len(moves):
        assert found.clearable_now is True and found.turned_at is None
    elif latest >= 0:
        assert found.clearable_now is False and found.turned_at == latest + 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**HISTORIES)
def test_a_known_clearing_of_the_deal_gives_the_same_answer(slug, seed, left, stop):
    """With the deal's clearing passed as its witness, the answer is the same
    (and some positions need no search)."""
    layout, faces, moves = small_history(slug, seed, left, stop)
    witness = clearing_by_brute_force(Board(layout, faces), set())
    plain = find_safety(layout, faces, moves)
    helped = find_safety(layout, faces, moves, witness=witness or ())
    assert (helped.safe, helped.dead) == (plain.safe, plain.dead)
    assert helped.nodes <= plain.nodes or witness is None
    if helped.safe >= 0:
        start = position(layout, faces, moves[: helped.safe])
        assert replay(start, helped.clearing).cleared


def swapped_history(seed: int):
    """A Turtle deal's clearing followed, but one group of four paired the
    other way round: the player takes two of its free tiles the clearing
    pairs with others. Returns the deal and the history up to that pair."""
    deal = generate_deal(get_layout("turtle"), seed)
    board = Board(deal.layout, deal.faces)
    for k, (a, b) in enumerate(deal.solution):
        free = [c for c in board.free_tiles() if c not in (a, b)]
        other = next((c for c in free if board.groups[c] == board.groups[a]), None)
        if other is not None:
            moves = [*deal.solution[:k], (a, other)]
            if solve(position(deal.layout, deal.faces, moves)).solvable:
                return deal, moves
        board.take(a, b)
    raise AssertionError("the clearing never left a choice")


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_a_pile_paired_otherwise_than_the_witness_is_settled_with_no_search(seed):
    """The player left the deal's clearing, but only by pairing one group
    the other way: the clearing, mended, still clears, so the answer needs
    no search, and its clearing replays from where the player is."""
    deal, moves = swapped_history(seed)
    found = find_safety(deal.layout, deal.faces, moves, deal.solution)
    assert found.clearable_now is True and found.nodes == 0
    assert replay(position(deal.layout, deal.faces, moves), found.clearing).cleared


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**HISTORIES, budget=st.integers(1, 40))
def test_a_budget_that_runs_out_says_so_and_never_guesses(
    slug, seed, left, stop, budget
):
    """With a tiny budget: whatever it claims is true (safe clears, dead does
    not), and when the span is still open it is not called exact."""
    layout, faces, moves = small_history(slug, seed, left, stop)
    found = find_safety(layout, faces, moves, budget=budget)
    clears = truth(layout, faces, moves)
    if found.safe >= 0:
        assert clears[found.safe]
        assert replay(position(layout, faces, moves[: found.safe]), found.clearing)
    if found.dead <= len(moves):
        assert not clears[found.dead]
    if not found.exact:
        assert found.pairs_back is None and found.turned_at is None
