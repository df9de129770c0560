from django import template

from dailies import days
from dailies.keys import daily_key
from dailies.views import board_url

register = template.Library()


@register.simple_tag
def todays_daily_url(layout_slug: str) -> str:
    """Where today's deal on this layout is played (today in
    DAILY_TIME_ZONE, so a site for Nepal turns at midnight in Kathmandu)."""
    return board_url(layout_slug, daily_key(days.today(), layout_slug))
