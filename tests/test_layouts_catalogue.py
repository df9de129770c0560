"""The layout catalogue: every built-in layout is valid and proved clearable.

Each layout's proof is generate_deal's witness, replayed here pair by pair on
the engine's Board, and the independent solver must agree.
"""

import pytest

from games.engine.board import Board
from games.engine.catalogue import builtin_layouts, get_layout
from games.engine.deal import generate_deal
from games.engine.layout import Layout
from games.engine.solver import solve
from games.proofs import prove_layout, replay_error

PORTRAIT = [
    "tall-turtle",
    "tower",
    "lantern",
    "ladder",
    "kite",
    "hourglass",
    "column",
    "vase",
    "arrow",
    "cascade",
]
NAMED = ["turtle", "small", "stupa", "durbar-square", "pagoda", "pyramid"]
NAMED += ["fortress", "bridge", "spider"]
ALL = sorted(builtin_layouts())


def test_the_catalogue_has_every_layout_the_issue_names():
    assert set(PORTRAIT + NAMED) <= set(ALL)
    assert len(PORTRAIT) == 10


@pytest.mark.parametrize("slug", ALL)
def test_each_layout_validates_and_its_witness_replays(slug):
    layout = get_layout(slug)
    # Building it again from its positions runs the overlap and count checks.
    Layout(slug=slug, name=layout.name, positions=layout.positions)
    deal = generate_deal(layout, "catalogue-test")
    board = Board(layout, deal.faces)
    for a, b in deal.solution:
        board.take(a, b)
    assert board.cleared
    witness, check = prove_layout(layout)
    assert witness is not None and check.verified, check.message


@pytest.mark.parametrize("slug", ALL)
def test_the_solver_agrees_each_layout_clears(slug):
    deal = generate_deal(get_layout(slug), "solver-check")
    result = solve(Board(deal.layout, deal.faces), max_nodes=300_000)
    assert result.solvable is True
    assert replay_error(deal.layout, deal.faces, result.solution) is None


@pytest.mark.parametrize(
    "slug, tiles, levels",
    [
        ("turtle", 144, 5),
        ("small", 32, None),
        ("tall-turtle", 144, 5),
        ("stupa", 60, None),
        ("durbar-square", 82, None),
        ("pagoda", 102, 5),
    ],
)
def test_layouts_with_a_fixed_size_have_it(slug, tiles, levels):
    layout = get_layout(slug)
    assert len(layout) == tiles
    if levels is not None:
        assert layout.levels == levels


@pytest.mark.parametrize("slug", PORTRAIT)
def test_portrait_layouts_fit_a_phone(slug):
    """At most 8 tiles wide, and taller than wide."""
    layout = get_layout(slug)
    assert layout.width <= 8
    assert layout.height > layout.width


def test_a_witness_that_breaks_the_rules_is_caught():
    """The replay check can fail: a pair taken out of order is refused."""
    deal = generate_deal(get_layout("small"), "x")
    backwards = tuple(reversed(deal.solution))
    assert replay_error(deal.layout, deal.faces, backwards) is not None
    assert replay_error(deal.layout, deal.faces, deal.solution[:-1]) is not None
