from django import template

from config.numerals import local_digits

register = template.Library()


@register.filter
def digits(value: object) -> str:
    """A number (or a date, a clock) as text in the page's own digits."""
    if value is None or value == "":
        return ""
    return local_digits(value)
