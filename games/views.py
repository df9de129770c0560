import json
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_POST

from accounts.players import known_player
from games import play
from games.boards import (
    BoardLocked,
    UnknownBoard,
    board_title,
    deal_for,
    free_key,
    next_board,
)
from games.engine.catalogue import UnknownLayout
from games.layout_svg import pile_svg
from games.layouts import playable_layout, playable_layouts
from games.models import Run


def home(request):
    # The pictures hold only numbers the code put there, so they are safe.
    cards = [(lay, mark_safe(pile_svg(lay))) for lay in playable_layouts()]
    return render(request, "home.html", {"cards": cards, "last": _last_game(request)})


def _last_game(request: HttpRequest) -> dict | None:
    """The player's game still in play, latest first: the home page's lead."""
    player = known_player(request)
    if player is None:
        return None
    run = (
        Run.objects.filter(player=player, status__in=play.IN_PLAY)
        .order_by("-updated")
        .first()
    )
    if run is None:
        return None
    url = reverse("games:board", args=[run.layout_slug])
    if run.board_key != free_key(run.layout_slug):
        url += "?" + urlencode({"board": run.board_key})
    try:
        title = board_title(run.board_key, gettext(run.layout_name))
    except (LookupError, ValueError):
        title = gettext(run.layout_name)
    return {"url": url, "title": title, "left": len(run.tiles) - 2 * len(run.moves)}


# The page's script reads the CSRF token from the cookie for its API calls.
@ensure_csrf_cookie
def board(request, slug: str):
    """The board page: new deals on one layout, or with `?board=<key>` a
    fixed board (a daily or a level) that is played on this layout."""
    # The page starts its run through the API; a look creates no guest.
    player = known_player(request)
    key = request.GET.get("board")
    if key is None:
        key = free_key(slug)
        try:
            layout = playable_layout(slug)
        except UnknownLayout as e:
            raise Http404(str(e)) from None
    else:
        try:
            # The deal, not the layout table, says which layout a fixed board
            # uses: a level keeps its layout even if an admin unpublishes it.
            layout = deal_for(key, player)[1].layout
        except BoardLocked:
            return _locked_level(request, key)
        except UnknownBoard as e:
            raise Http404(str(e)) from None
        if layout.slug != slug:
            url = reverse("games:board", args=[layout.slug])
            return redirect(f"{url}?board={key}")
    following = next_board(key)
    context = {
        "layout": layout,
        "board_key": key,
        "title": board_title(key, gettext(layout.name)),
        # The board page redirects to the next board's own layout.
        "next_url": following
        and reverse("games:board", args=[layout.slug])
        + "?"
        + urlencode({"board": following}),
        "player": player,
        "account_looks": _account_looks(request),
    }
    return render(request, "games/board.html", context)


def _locked_level(request: HttpRequest, key: str):
    """A level opened by its address before its turn: which one opens it."""
    # Only the levels lock (dailies/boards.py): "level:<n>".
    rest = key.partition(":")[2]
    number = int(rest) if rest.isdigit() else None
    context = {"number": number, "previous": number - 1 if number else None}
    return render(request, "games/locked.html", context, status=403)


# What the settings dialog offers (static/js/board/looks.js); anything else
# sent is refused, so the account never keeps a look the page cannot draw.
LOOKS: dict[str, set[Any]] = {
    "set": {"classic", "large", "traditional"},
    "table": {"felt", "night", "wood", "slate"},
    "sound": {True, False},
    "flat": {True, False},
}


def _account_looks(request: HttpRequest) -> dict | None:
    if not request.user.is_authenticated:
        return None
    player = known_player(request)
    return player.looks if player is not None and player.looks else None


@require_POST
def looks(request: HttpRequest) -> JsonResponse:
    """Keep the board's looks with a signed-in player's account; a guest's
    stay on their device (the page keeps them there in any case)."""
    try:
        data = json.loads(request.body or b"{}")
    except (UnicodeDecodeError, json.JSONDecodeError):
        data = None
    if not isinstance(data, dict) or any(
        name not in LOOKS
        or value not in LOOKS[name]
        # True == 1 in a set: a number is not a switch.
        or (name in ("sound", "flat")) != isinstance(value, bool)
        for name, value in data.items()
    ):
        return JsonResponse(
            {"error": "bad-looks", "message": "unknown look or value"}, status=400
        )
    player = known_player(request) if request.user.is_authenticated else None
    if player is None:
        return JsonResponse({"kept": "device"})
    player.looks = {**player.looks, **data}
    player.save(update_fields=["looks"])
    return JsonResponse({"kept": "account", "looks": player.looks})
