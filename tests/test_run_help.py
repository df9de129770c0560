"""Hints and shuffles: counted, they make a clear not clean; shuffles only
where the board's mode allows them."""

import pytest

from games import boards
from games.engine import hint as hint_module
from games.engine.deal import Deal
from games.engine.layout import Layout
from games.models import Run
from tests.engine_helpers import SettlesNothing
from tests.run_helpers import Browser, FakeClock

pytestmark = pytest.mark.django_db

# Four tiles of one face: B lies on A; C and D stand in a row to the right.
# Taking C and D first leaves A under B: no order can clear that.
TRAP = Layout(
    slug="trap",
    name="Trap",
    positions=((0, 0, 0), (0, 0, 1), (4, 0, 0), (6, 0, 0)),
)
A, B, C, D = range(4)


def trap_deal(rest: str) -> Deal:
    return Deal(TRAP, rest, ("dots-1",) * 4, ((B, C), (A, D)))


@pytest.fixture
def fixed_mode(monkeypatch):
    """A board mode with no shuffles, as dailies and levels are."""
    mode = boards.Mode("fixed", trap_deal, can_shuffle=False)
    monkeypatch.setitem(boards._MODES, "fixed", mode)


@pytest.fixture
def trap_mode(monkeypatch):
    mode = boards.Mode("trap", trap_deal, can_shuffle=True)
    monkeypatch.setitem(boards._MODES, "trap", mode)


def test_a_hint_names_a_free_pair_that_keeps_the_pile_clearable(monkeypatch):
    FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    response = me.act(run["id"], "hint")
    assert response.status_code == 200
    hint, after = response.json()["hint"], response.json()["run"]
    board = Run.objects.get(public_id=run["id"]).state().board()
    assert tuple(hint["pair"]) in board.free_pairs()
    assert hint["clearable"] is True
    assert (after["hints"], after["clean"]) == (1, False)
    again = me.act(run["id"], "hint").json()["run"]
    assert again["hints"] == 2


def test_while_play_follows_the_deal_a_hint_needs_no_search(monkeypatch):
    """What is left of the deal's witness proves its free pairs safe: with
    a search that settles nothing, the hint is still verified, before and
    after a pair of it is taken; once play leaves it, it is not."""
    FakeClock(monkeypatch)
    me = Browser()
    run = me.start("free:turtle").json()
    witness = Run.objects.get(public_id=run["id"]).witness
    monkeypatch.setattr(hint_module, "Solver", SettlesNothing)
    assert me.act(run["id"], "hint").json()["hint"]["clearable"] is True
    run = me.take(run, *witness[0]).json()
    hint = me.act(run["id"], "hint").json()["hint"]
    assert hint["clearable"] is True
    board = Run.objects.get(public_id=run["id"]).state().board()
    assert tuple(hint["pair"]) in board.free_pairs()
    pairs = {tuple(sorted(p)) for p in witness}
    pair = next(p for p in board.free_pairs() if p not in pairs)
    run = me.take(run, *pair).json()
    assert me.act(run["id"], "hint").json()["hint"]["clearable"] is None


def test_shuffle_re_lays_the_standing_faces_in_free_mode(monkeypatch):
    FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    first = Run.objects.get(public_id=run["id"]).witness[0]
    run = me.take(run, *first).json()
    response = me.act(run["id"], "shuffle")
    assert response.status_code == 200
    shuffled = response.json()
    assert (shuffled["shuffles"], shuffled["clean"]) == (1, False)
    assert shuffled["removed"] == [first]
    assert sorted(t["face"] for t in shuffled["tiles"]) == sorted(
        t["face"] for t in run["tiles"]
    )
    assert [t["face"] for t in shuffled["tiles"]] != [t["face"] for t in run["tiles"]]
    for tile in first:
        assert shuffled["tiles"][tile] == run["tiles"][tile]


def test_shuffle_is_refused_where_the_mode_forbids_it(monkeypatch, fixed_mode):
    FakeClock(monkeypatch)
    me = Browser()
    run = me.start("fixed:one").json()
    assert run["can_shuffle"] is False
    response = me.act(run["id"], "shuffle")
    assert response.status_code == 400
    assert response.json()["error"] == "no_shuffle"
    assert response.json()["run"]["shuffles"] == 0


def test_hints_count_where_shuffles_are_forbidden(monkeypatch, fixed_mode):
    FakeClock(monkeypatch)
    me = Browser()
    run = me.start("fixed:one").json()
    assert me.act(run["id"], "hint").json()["run"]["hints"] == 1


def test_a_stuck_pile_is_reported_and_shuffle_cannot_save_stacked_tiles(
    monkeypatch, trap_mode
):
    FakeClock(monkeypatch)
    me = Browser()
    run = me.start("trap:one").json()
    assert run["stuck"] is False
    stuck = me.take(run, C, D).json()
    assert stuck["stuck"] is True
    response = me.act(run["id"], "shuffle")
    assert response.status_code == 409
    assert response.json()["error"] == "no_order"
    assert response.json()["run"]["shuffles"] == 0
    hint = me.act(run["id"], "hint").json()
    assert hint["hint"]["pair"] is None
    assert hint["run"]["hints"] == 0
    assert me.act(run["id"], "undo", {"move": 1}).json()["stuck"] is False


def test_restart_is_the_same_deal_even_after_a_shuffle(monkeypatch):
    FakeClock(monkeypatch)
    me = Browser()
    run = me.start().json()
    me.act(run["id"], "shuffle")
    again = me.act(run["id"], "restart").json()
    assert again["tiles"] == run["tiles"]
    assert again["shuffles"] == 1
