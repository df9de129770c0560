"""Which layouts the site offers, and the layout commands.

With no Layout rows the engine's built-in files stand in; once rows exist,
only published layouts with a stored proof are playable.
"""

import json

import pytest
from django.core.management import CommandError, call_command

from games.engine.catalogue import UnknownLayout, builtin_layouts
from games.layout_actions import PublishError, record_proof, set_published
from games.layouts import playable_layout, playable_layouts
from games.models import Layout
from games.proofs import replay_error

pytestmark = pytest.mark.django_db

ROW = [[0, 0, 0], [2, 0, 0], [4, 0, 0], [6, 0, 0]]


def test_with_no_rows_the_built_in_layouts_are_playable():
    assert {lay.slug for lay in playable_layouts()} == set(builtin_layouts())
    assert len(playable_layout("turtle")) == 144


def test_load_layouts_makes_proved_published_rows(capsys):
    call_command("load_layouts")
    rows = Layout.objects.all()
    assert {r.slug for r in rows} == set(builtin_layouts())
    assert all(r.published and r.is_verified for r in rows)
    for row in rows:
        # A layout's witness is an order for the spots alone: with every
        # face alike each pair matches, so only the free rule is tested.
        layout = row.engine_layout()
        faces = ("dots-1",) * len(layout)
        assert replay_error(layout, faces, row.witness) is None, row.slug
    assert {lay.slug for lay in playable_layouts()} == set(builtin_layouts())
    call_command("load_layouts")  # a second run changes nothing
    assert "unchanged" not in capsys.readouterr().out.split("\n")[-2:]


def test_only_published_proved_rows_are_playable():
    Layout.objects.create(name="Row", slug="row", positions=ROW)
    assert playable_layouts() == []
    with pytest.raises(UnknownLayout):
        playable_layout("row")
    with pytest.raises(PublishError):
        set_published(Layout.objects.get().pk, True)
    row = record_proof(Layout.objects.get().pk)
    set_published(row.pk, True)
    assert [lay.slug for lay in playable_layouts()] == ["row"]
    assert playable_layout("row").positions == tuple(map(tuple, ROW))


def test_the_layouts_command_lists_status_tiles_levels_and_width(capsys):
    Layout.objects.create(name="Row", slug="row", positions=ROW)
    call_command("layouts")
    line = capsys.readouterr().out.strip()
    assert line.split()[:7] == ["row", "4", "tiles", "1", "levels", "4", "wide"]
    assert "waiting for proof" in line


def test_import_layout_reads_kmahjongg_and_proves_it(tmp_path, capsys):
    path = tmp_path / "four.layout"
    path.write_text("kmahjongg-layout-v1.1\nw8\nh2\nd1\n12121212\n43434343\n")
    call_command("import_layout", str(path))
    row = Layout.objects.get(slug="four")
    assert row.positions == ROW and row.is_verified and not row.published
    assert "Proved clearable" in capsys.readouterr().out
    with pytest.raises(CommandError, match="--replace"):
        call_command("import_layout", str(path))


def test_import_layout_takes_the_name_of_the_desktop_file_beside_it(tmp_path):
    (tmp_path / "four.layout").write_text(
        "kmahjongg-layout-v1.1\nw8\nh2\nd1\n12121212\n43434343\n"
    )
    (tmp_path / "four.desktop").write_text("[KMahjonggLayout]\nName=Four in a row\n")
    call_command("import_layout", str(tmp_path / "four.layout"))
    assert Layout.objects.get(slug="four").name == "Four in a row"


def test_export_then_import_round_trips_spec_json(tmp_path, capsys):
    call_command("export_layout", "small")
    exported = capsys.readouterr().out
    doc = json.loads(exported)
    doc["slug"], doc["name"] = "small-copy", "Small copy"
    path = tmp_path / "small.json"
    path.write_text(json.dumps(doc))
    call_command("import_layout", str(path))
    assert Layout.objects.get(slug="small-copy").positions == doc["positions"]
