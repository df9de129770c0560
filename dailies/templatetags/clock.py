from django import template

from sitewide.numerals import local_digits

register = template.Library()


@register.filter
def clock(ms: int | None) -> str:
    """Milliseconds as m:ss (h:mm:ss past an hour) in the page's digits;
    empty for None."""
    if ms is None:
        return ""
    seconds = int(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return local_digits(f"{hours}:{minutes:02d}:{seconds:02d}")
    return local_digits(f"{minutes}:{seconds:02d}")
