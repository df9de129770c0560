from django.http import Http404
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from accounts.players import current_player
from games.boards import free_key
from games.engine.catalogue import UnknownLayout
from games.layouts import playable_layout, playable_layouts


def home(request):
    return render(request, "home.html", {"layouts": playable_layouts()})


# The page's script reads the CSRF token from the cookie for its API calls.
@ensure_csrf_cookie
def board(request, slug: str):
    """The board page for new deals on one layout."""
    try:
        layout = playable_layout(slug)
    except UnknownLayout as e:
        raise Http404(str(e)) from None
    context = {
        "layout": layout,
        "board_key": free_key(slug),
        "player": current_player(request),
    }
    return render(request, "games/board.html", context)
