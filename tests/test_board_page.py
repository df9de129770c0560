"""The board page for new deals on a layout, and the layout links to it."""

import pytest

from accounts.models import Player

pytestmark = pytest.mark.django_db


def test_the_board_page_names_the_layout_board_and_player(client):
    response = client.get("/play/small/")
    assert response.status_code == 200
    assert response.context["layout"].slug == "small"
    assert response.context["board_key"] == "free:small"
    assert response.context["player"] == Player.objects.get()
    # The page's script needs the CSRF cookie for its API calls.
    assert "csrftoken" in response.cookies
    assert "tiles_player" in response.cookies


def test_an_unknown_layout_is_not_found(client):
    assert client.get("/play/nowhere/").status_code == 404


def test_the_home_page_links_each_layout_to_its_board(client):
    page = client.get("/").content.decode()
    assert 'href="/play/small/"' in page
    assert 'href="/play/turtle/"' in page
