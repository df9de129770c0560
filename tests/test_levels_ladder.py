"""The 100 levels: the number alone decides the board, difficulty climbs on
tiles, pile height and faces-as-four together, and 90-100 are full sets."""

import json
from collections import Counter

import pytest
from django.core.management import CommandError, call_command

from dailies.deals import level_deal, secret_deal
from dailies.levels import FULL_SET_FROM, LEVELS, UnknownLevel, level_spec
from dailies.models import LevelDeal
from dailies.tasks import prepare_levels
from games.engine.catalogue import get_layout
from games.engine.deal import generate_deal
from games.engine.faces import full_set, group_of

SPECS = [level_spec(n) for n in range(1, LEVELS + 1)]


def test_each_level_spec_is_fixed_by_its_number():
    assert [level_spec(n) for n in range(1, LEVELS + 1)] == SPECS
    assert len({s.seed for s in SPECS}) == LEVELS


@pytest.mark.parametrize("attribute", ["tiles", "levels", "quads"])
def test_difficulty_never_falls_from_one_level_to_the_next(attribute):
    values = [getattr(s, attribute) for s in SPECS]
    assert values == sorted(values)
    assert values[-1] > values[0]


def test_the_spec_matches_its_layout():
    for spec in SPECS:
        layout = get_layout(spec.layout_slug)
        assert (len(layout), layout.levels) == (spec.tiles, spec.levels)


def test_levels_90_to_100_are_the_full_set_with_every_face_as_four():
    for spec in SPECS[FULL_SET_FROM - 1 :]:
        deal = generate_deal(get_layout(spec.layout_slug), spec.seed, spec.quads)
        assert Counter(deal.faces) == Counter(full_set())
        groups = Counter(group_of(f) for f in deal.faces)
        assert set(groups.values()) == {4}


def test_below_90_the_faces_as_four_are_exactly_the_specs():
    for spec in SPECS[: FULL_SET_FROM - 1 : 7]:
        deal = generate_deal(get_layout(spec.layout_slug), spec.seed, spec.quads)
        groups = Counter(group_of(f) for f in deal.faces)
        assert sum(1 for c in groups.values() if c == 4) == spec.quads


def test_there_is_no_level_0_or_101():
    for n in (0, LEVELS + 1):
        with pytest.raises(UnknownLevel):
            level_spec(n)


@pytest.mark.django_db
def test_a_level_deals_the_identical_board_every_time():
    first = level_deal(7)
    assert level_deal(7) == first
    # Drawn from the site's deal seed for "level-7", not from "level-7" alone.
    ours = secret_deal(get_layout("small"), "level-7", SPECS[6].quads)[0]
    assert (first.faces, first.solution) == (ours.faces, ours.solution)
    public = generate_deal(get_layout("small"), "level-7", SPECS[6].quads)
    assert first.faces != public.faces and first.seed == "level-7"
    assert LevelDeal.objects.get().number == 7


@pytest.mark.django_db
def test_the_deal_command_prints_a_level_identically_twice(capsys):
    call_command("deal", "--level", "12")
    once = capsys.readouterr().out
    call_command("deal", "--level", "12")
    assert capsys.readouterr().out == once
    deal = json.loads(once)
    assert deal["layout"] == SPECS[11].layout_slug and deal["seed"] == "level-12"
    with pytest.raises(CommandError, match="levels run from 1 to 100"):
        call_command("deal", "--level", "101")


@pytest.mark.django_db
def test_prepare_levels_makes_each_level_once_and_verifies_it():
    """A slice of the ladder keeps the test quick; the task's default is 1-100."""
    span = {"first": 86, "last": 92}
    assert prepare_levels.apply(kwargs=span).get() == {"made": 7, "unverified": 0}
    faces = dict(LevelDeal.objects.values_list("number", "faces"))
    assert sorted(faces) == list(range(86, 93))
    assert prepare_levels.apply(kwargs=span).get() == {"made": 0, "unverified": 0}
    assert dict(LevelDeal.objects.values_list("number", "faces")) == faces


def test_every_level_stands_upright_on_a_phone():
    """At most 8 columns wide, taller than wide or nearly: no level is a
    wide strip of small tiles on a phone held upright."""
    for spec in SPECS:
        layout = get_layout(spec.layout_slug)
        xs = [x for x, _, _ in layout.positions]
        ys = [y for _, y, _ in layout.positions]
        columns = (max(xs) - min(xs)) // 2 + 1
        rows = (max(ys) - min(ys)) // 2 + 1
        assert columns <= 8, (spec.number, spec.layout_slug, columns)
        assert spec.number <= 10 or rows >= columns, (spec.number, spec.layout_slug)
