"""The companion on a solo run: back to safety, where it turned, a way
through. Each is help (counted like a hint), and each answer is checked by
replaying it on the engine, not by trusting the solver."""

import pytest

from games import boards
from games.engine import safety as safety_module
from games.engine.deal import Deal
from games.engine.layout import Layout
from games.engine.safety import position
from games.models import Run
from tests.engine_helpers import SettlesNothing, replay
from tests.run_helpers import Browser, FakeClock

pytestmark = pytest.mark.django_db

# A, B, C, D: four of one face, B lying on A, C and D in a row to the right;
# E and F, a pair of another face further right. Taking C and D first
# leaves A under B, and nothing after that can clear the pile.
TRAP = Layout(
    slug="trap2",
    name="Trap",
    positions=((0, 0, 0), (0, 0, 1), (4, 0, 0), (6, 0, 0), (10, 0, 0), (12, 0, 0)),
)
A, B, C, D, E, F = range(6)
FACES = ("dots-1",) * 4 + ("bamboo-2",) * 2


def trap_deal(rest: str) -> Deal:
    return Deal(TRAP, rest, FACES, ((B, C), (A, D), (E, F)))


@pytest.fixture
def me(monkeypatch):
    FakeClock(monkeypatch)
    monkeypatch.setitem(boards._MODES, "trap", boards.Mode("trap", trap_deal))
    return Browser()


def lost_pile(me: Browser) -> dict:
    """A run after C-D (the pair that loses it) and then E-F."""
    run = me.start("trap:x").json()
    run = me.take(run, C, D).json()
    return me.take(run, E, F).json()


def test_back_to_safety_undoes_to_the_latest_clearable_position(me):
    run = lost_pile(me)
    response = me.act(run["id"], "safety")
    assert response.status_code == 200
    found, after = response.json()["safety"], response.json()["run"]
    assert found["exact"] is True and found["clearable_now"] is False
    assert found["pairs_back"] == 2
    assert (found["turned_at"], found["pair"], found["face"]) == (1, [C, D], "dots-1")
    assert after["removed"] == []
    # Help, like a hint: counted, and the run sets no best time.
    assert (after["hints"], after["clean"], after["undos"]) == (1, False, 2)


def test_back_to_safety_on_a_clearable_pile_changes_nothing(me):
    run = me.start("trap:x").json()
    run = me.take(run, E, F).json()
    found = me.act(run["id"], "safety").json()
    assert found["safety"]["clearable_now"] is True
    assert found["safety"]["pairs_back"] == 0
    assert found["run"]["removed"] == [[E, F]]
    assert found["run"]["hints"] == 0


def test_a_search_out_of_budget_says_so_and_changes_nothing(me, monkeypatch):
    monkeypatch.setattr(safety_module, "Solver", SettlesNothing)
    run = me.start("trap:x").json()
    run = me.take(run, C, D).json()  # off the witness: a search is needed
    found = me.act(run["id"], "safety").json()
    assert found["safety"]["exact"] is False
    assert found["safety"]["pairs_back"] is None
    assert found["run"]["removed"] == [[C, D]]
    assert found["run"]["hints"] == 0


def test_where_it_turned_is_for_finished_runs_only(me):
    run = lost_pile(me)
    response = me.client.get(f"/play/api/runs/{run['id']}/turned")
    assert response.status_code == 409
    assert response.json()["error"] == "in_play"
    me.act(run["id"], "give-up")
    turned = me.client.get(f"/play/api/runs/{run['id']}/turned").json()["turned"]
    assert (turned["turned_at"], turned["pair"], turned["face"]) == (
        1,
        [C, D],
        "dots-1",
    )


def test_a_way_through_from_a_lost_pile_starts_from_the_deal(me):
    run = lost_pile(me)
    answer = me.act(run["id"], "way").json()
    way = answer["way"]
    assert way["from"] == "start"
    start = position(TRAP, tuple(way["faces"]), ())
    assert replay(start, [tuple(p) for p in way["pairs"]]).cleared
    assert answer["run"]["hints"] == 1
    assert answer["run"]["removed"] == run["removed"]


def test_a_way_through_a_clearable_pile_starts_where_it_is(me):
    run = me.start("trap:x").json()
    run = me.take(run, B, C).json()
    way = me.act(run["id"], "way").json()["way"]
    assert way["from"] == "current"
    now = Run.objects.get(public_id=run["id"]).state().board()
    assert replay(now, [tuple(p) for p in way["pairs"]]).cleared


def test_on_a_finished_run_a_way_through_is_not_counted(me):
    run = lost_pile(me)
    me.act(run["id"], "give-up")
    answer = me.act(run["id"], "way").json()
    assert answer["run"]["hints"] == 0 and answer["run"]["status"] == "lost"


def test_the_warning_speaks_once_when_the_last_pair_lost_the_pile(me):
    run = me.start("trap:x").json()
    run = me.take(run, E, F).json()
    quiet = me.act(run["id"], "check").json()
    assert quiet["warning"] is False and quiet["run"]["hints"] == 0
    run = me.take(run, C, D).json()
    warned = me.act(run["id"], "check").json()
    assert warned["warning"] is True and warned["run"]["hints"] == 1
    # Lost already before the last pair: nothing more to say.
    run = me.act(run["id"], "undo", {"move": 2}).json()
    run = me.act(run["id"], "undo", {"move": 1}).json()
    run = me.take(run, C, D).json()
    run = me.take(run, E, F).json()
    assert me.act(run["id"], "check").json()["warning"] is False
