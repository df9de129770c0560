"""The board page for new deals on a layout, and the layout links to it."""

import pytest
from django.templatetags.static import static

from accounts.models import Player

pytestmark = pytest.mark.django_db


def test_the_board_page_names_the_layout_board_and_player(client):
    response = client.get("/play/small/")
    assert response.status_code == 200
    assert response.context["layout"].slug == "small"
    assert response.context["board_key"] == "free:small"
    # A look makes no guest: the page's first API call will.
    assert response.context["player"] is None
    assert not Player.objects.exists()
    # The page's script needs the CSRF cookie for its API calls.
    assert "csrftoken" in response.cookies
    assert "tiles_player" not in response.cookies


def test_every_page_names_the_site_icon(client):
    icon = static("favicon.svg")  # its hashed name (tests/test_static_files.py)
    for path in ("/", "/play/small/", "/rooms/", "/levels/"):
        page = client.get(path).content.decode()
        assert f'<link rel="icon" href="{icon}"' in page, path


def test_an_unknown_layout_is_not_found(client):
    assert client.get("/play/nowhere/").status_code == 404


def test_the_home_page_links_each_layout_to_its_board(client):
    page = client.get("/").content.decode()
    assert 'href="/play/small/"' in page
    assert 'href="/play/turtle/"' in page


def test_a_level_board_opens_on_its_own_layout(client):
    """Level 1 is open to everyone; the page carries the level's board key."""
    from dailies.levels import level_spec

    slug = level_spec(1).layout_slug
    response = client.get(f"/play/{slug}/?board=level:1")
    assert response.status_code == 200
    assert response.context["board_key"] == "level:1"
    assert response.context["layout"].slug == slug


def test_a_fixed_board_under_another_layouts_address_is_redirected(client):
    from dailies.levels import level_spec

    slug = level_spec(1).layout_slug
    other = "turtle" if slug != "turtle" else "small"
    response = client.get(f"/play/{other}/?board=level:1")
    assert response.status_code == 302
    assert response["Location"] == f"/play/{slug}/?board=level:1"


def test_a_locked_level_is_forbidden_and_an_unknown_board_not_found(client):
    assert client.get("/play/turtle/?board=level:100").status_code == 403
    assert client.get("/play/turtle/?board=level:101").status_code == 404
    assert client.get("/play/turtle/?board=daily:1999-01-01:turtle").status_code == 404


def test_the_home_page_shows_a_picture_of_each_pile_and_the_ways_to_play(client):
    from games.layouts import playable_layouts

    page = client.get("/").content.decode()
    assert page.count("<svg") == len(playable_layouts())
    for link in ('href="/daily/"', 'href="/levels/"', 'href="/rooms/"'):
        assert link in page


def test_a_level_and_a_daily_say_where_the_player_is(client):
    """Headed "Level 1 · Small" (with a way on to level 2 once cleared) and
    "Daily · 1 December · Tall Turtle"; free play is headed by its layout."""
    from dailies import days
    from dailies.levels import level_spec

    slug = level_spec(1).layout_slug
    level = client.get(f"/play/{slug}/?board=level:1")
    name = level.context["layout"].name
    assert f'<h1 id="layout-name" class="board-title">Level 1 · {name}</h1>' in (
        level.text
    )
    assert level.context["next_url"] == f"/play/{slug}/?board=level%3A2"
    assert 'id="next-level"' in level.text

    day = days.today()
    daily = client.get(f"/play/tall-turtle/?board=daily:{day.isoformat()}:tall-turtle")
    heading = f"Daily · {day.day} {day.strftime('%B')} · Tall Turtle"
    assert daily.context["title"] == heading
    assert f"<title>{heading} · Tiles</title>" in daily.text
    assert daily.context["next_url"] is None
    assert 'id="next-level"' not in daily.text

    free = client.get("/play/small/")
    assert free.context["title"] == "Small"
