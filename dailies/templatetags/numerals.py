from django import template
from django.core.exceptions import ValidationError

from sitewide.numerals import local_digits, local_error

register = template.Library()


@register.filter
def digits(value: object) -> str:
    """A number (or a date, a clock) as text in the page's own digits."""
    if value is None or value == "":
        return ""
    return local_digits(value)


@register.filter
def error_text(error: ValidationError) -> str:
    """A form error (one of `errors.as_data`) with its numbers in the page's
    digits: Django's own messages format theirs in Western ones."""
    return local_error(error)
