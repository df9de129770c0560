"""The daily leaderboard: clean clears by time, then assisted clears by hints
(then time); one line per player, registered players' names only."""

import pytest

from accounts.models import Player
from dailies.standings import leaderboard
from games.models import Run

pytestmark = pytest.mark.django_db

KEY = "daily:2026-11-30:tall-turtle"


def player(django_user_model, name: str | None) -> Player:
    """A registered player called `name`, or a guest when name is None."""
    if name is None:
        return Player.objects.create(display_name="Guest 1234")
    user = django_user_model.objects.create_user(name, password="pw-" + name)
    return Player.objects.create(user=user, display_name=name)


def won(who: Player, ms: int, hints: int = 0, key: str = KEY, status="won") -> Run:
    return Run.objects.create(
        player=who,
        board_key=key,
        mode=key.partition(":")[0],
        layout_slug="tall-turtle",
        layout_name="Tall Turtle",
        seed="2026-11-30",
        tiles=[],
        initial_faces=[],
        witness=[],
        status=status,
        banked_ms=ms,
        hints=hints,
    )


def test_clean_clears_by_time_then_assisted_by_hints(django_user_model):
    ana, bo, cy, di = (player(django_user_model, n) for n in ["ana", "bo", "cy", "di"])
    won(ana, 300_000, hints=2)
    won(bo, 250_000)
    won(cy, 100_000, hints=1)
    won(di, 400_000)
    board = leaderboard(KEY)
    assert [(e.rank, e.name, e.ms, e.hints) for e in board] == [
        (1, "bo", 250_000, 0),
        (2, "di", 400_000, 0),
        (3, "cy", 100_000, 1),
        (4, "ana", 300_000, 2),
    ]
    assert [e.clean for e in board] == [True, True, False, False]


def test_each_player_appears_once_with_their_best_clear(django_user_model):
    ana = player(django_user_model, "ana")
    won(ana, 90_000, hints=3)
    won(ana, 200_000)
    won(ana, 150_000)
    assert [(e.name, e.ms, e.hints) for e in leaderboard(KEY)] == [("ana", 150_000, 0)]


def test_guests_and_unfinished_runs_are_left_out(django_user_model):
    guest = player(django_user_model, None)
    ana = player(django_user_model, "ana")
    won(guest, 10_000)
    won(ana, 20_000, status="lost")
    won(ana, 30_000, status="playing")
    won(ana, 40_000, key="daily:2026-11-29:tall-turtle")
    assert leaderboard(KEY) == []


def test_the_daily_page_shows_the_leaderboard_to_everyone(client, django_user_model):
    from dailies import days

    key = f"daily:{days.today().isoformat()}:tall-turtle"
    won(player(django_user_model, "ana"), 61_000, key=key)
    won(player(django_user_model, None), 1_000, key=key)
    page = client.get("/daily/").content.decode()
    assert "ana" in page and "1:01" in page
    assert "Guest 1234" not in page
