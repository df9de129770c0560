"""Layouts in Django admin: geometry checked on save, proof before publish,
SVG top views, import (spec JSON, KMahjongg) and export."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Layout
from tests.layout_helpers import eager_celery  # noqa: F401

pytestmark = pytest.mark.django_db

# Four tiles in a row and two on top: clearable.
GOOD = [[0, 0, 0], [2, 0, 0], [4, 0, 0], [6, 0, 0], [2, 0, 1], [4, 0, 1]]


@pytest.fixture
def admin(client, django_user_model):
    user = django_user_model.objects.create_superuser("boss", "b@example.com", "pw")
    client.force_login(user)
    return client


def add(admin, positions, **extra):
    data = {"name": "Row", "slug": "row", "positions": json.dumps(positions)}
    return admin.post("/admin/games/layout/add/", {**data, **extra})


def test_saving_overlapping_tiles_is_refused_naming_them(admin):
    response = add(admin, [[0, 0, 0], [2, 0, 0], [3, 1, 0], [6, 0, 0]])
    assert response.status_code == 200
    text = response.content.decode()
    assert "tile 1 at (2, 0, 0) and tile 2 at (3, 1, 0) overlap on level 0" in text
    assert not Layout.objects.exists()


def test_an_odd_tile_count_is_refused(admin):
    response = add(admin, GOOD[:5])
    assert "5 tiles; a layout needs an even number" in response.content.decode()


@pytest.mark.usefixtures("eager_celery")
def test_a_saved_layout_is_proved_with_a_witness_that_replays(
    admin, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = add(admin, GOOD)
    assert response.status_code == 302
    row = Layout.objects.get(slug="row")
    assert row.status == Layout.Status.VERIFIED
    assert len(row.witness) == 3
    assert not row.published
    from games.proofs import replay_error

    faces = ("dots-1",) * 6
    assert replay_error(row.engine_layout(), faces, row.witness) is None


def test_publishing_before_the_proof_is_refused(admin):
    response = add(admin, GOOD, published="on")
    assert "Prove the layout clearable before publishing it." in (
        response.content.decode()
    )


@pytest.mark.usefixtures("eager_celery")
def test_changing_positions_drops_the_proof_and_unpublishes(
    admin, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        add(admin, GOOD)
    row = Layout.objects.get(slug="row")
    row.published = True
    row.save()
    moved = GOOD[:4] + [[1, 0, 1], [5, 0, 1]]
    data = {"name": "Row", "slug": "row", "positions": json.dumps(moved)}
    data["published"] = "on"
    admin.post(f"/admin/games/layout/{row.pk}/change/", data)
    row.refresh_from_db()
    assert row.positions == moved
    assert not row.published
    assert row.status == Layout.Status.PENDING and row.witness is None


@pytest.mark.usefixtures("eager_celery")
def test_the_change_page_shows_a_top_view_per_level_and_the_status(
    admin, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        add(admin, GOOD)
    row = Layout.objects.get(slug="row")
    page = admin.get(f"/admin/games/layout/{row.pk}/change/").content.decode()
    assert page.count('aria-label="level ') == 2
    assert "level 0" in page and "level 1" in page
    assert "Proved clearable" in page
    assert "3 pairs, replayed on the engine" in page


@pytest.mark.usefixtures("eager_celery")
def test_import_a_kmahjongg_file_then_export_spec_json(
    admin, django_capture_on_commit_callbacks
):
    text = "kmahjongg-layout-v1.1\nw8\nh2\nd2\n12121212\n43434343\n..1212..\n..4343..\n"
    upload = SimpleUploadedFile("my-row.layout", text.encode())
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post("/admin/games/layout/import/", {"file": upload})
    assert response.status_code == 302
    row = Layout.objects.get(slug="my-row")
    assert row.name == "My Row"
    assert row.positions == GOOD
    assert row.status == Layout.Status.VERIFIED
    exported = admin.get(f"/admin/games/layout/{row.pk}/export/")
    assert json.loads(exported.content) == {
        "format": "mahjong-layout/1",
        "slug": "my-row",
        "name": "My Row",
        "positions": GOOD,
    }


def test_import_refuses_a_broken_file_with_the_reason(admin):
    upload = SimpleUploadedFile(
        "bad.layout", b"kmahjongg-layout-v1.1\nw2\nh2\nd1\n1.\n43\n"
    )
    response = admin.post("/admin/games/layout/import/", {"file": upload})
    assert response.status_code == 200
    assert "line 5, column 2" in response.content.decode()
    assert not Layout.objects.exists()


def test_import_spec_json_does_not_overwrite_without_replace(admin):
    Layout.objects.create(name="Row", slug="row", positions=GOOD)
    doc = {
        "format": "mahjong-layout/1",
        "slug": "row",
        "name": "Row",
        "positions": GOOD[:4],
    }
    upload = SimpleUploadedFile("row.json", json.dumps(doc).encode())
    response = admin.post("/admin/games/layout/import/", {"file": upload})
    assert "tick Replace" in response.content.decode()
    assert Layout.objects.get(slug="row").positions == GOOD


def test_the_list_shows_size_status_and_an_import_link(admin):
    Layout.objects.create(name="Row", slug="row", positions=GOOD)
    page = admin.get("/admin/games/layout/").content.decode()
    assert "Import a layout" in page
    assert "Waiting for proof" in page
    assert admin.get("/admin/games/layout/import/").status_code == 200
