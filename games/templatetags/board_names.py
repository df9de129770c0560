from django import template
from django.utils.translation import gettext

from games.boards import board_title

register = template.Library()


@register.filter
def board_name(best) -> str:
    """A best time's board as people say it: "Daily · 2 December · Small",
    "Level 1 · Pagoda", a new deal's layout alone; never the raw key."""
    layout = gettext(best.layout_name)
    try:
        return board_title(best.board_key, layout)
    except (LookupError, ValueError):
        # A key from a mode since retired: the layout is still true.
        return layout
