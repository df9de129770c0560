from urllib.parse import urlencode

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.csrf import ensure_csrf_cookie

from accounts.players import known_player
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


def home(request):
    # The pictures hold only numbers the code put there, so they are safe.
    cards = [(lay, mark_safe(pile_svg(lay))) for lay in playable_layouts()]
    return render(request, "home.html", {"cards": cards})


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
        except BoardLocked as e:
            raise PermissionDenied(str(e)) from None
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
    }
    return render(request, "games/board.html", context)
