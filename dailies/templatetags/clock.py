from django import template

register = template.Library()


@register.filter
def clock(ms: int | None) -> str:
    """Milliseconds as m:ss (h:mm:ss past an hour); empty for None."""
    if ms is None:
        return ""
    seconds = int(ms) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"
