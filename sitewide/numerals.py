"""Numbers in the page's own digits.

The digits of a language are a string in its catalogue: "0123456789" in
context "digits", which Nepali translates as "०१२३४५६७८९". A language that
writes Western digits leaves it as it is. The JavaScript side reads the same
string from Django's JavaScript catalog (static/js/i18n.js), so server and
browser agree.
"""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import pgettext

WESTERN = "0123456789"


def digits_table() -> dict[int, int]:
    # Translators: the ten digits 0 to 9 as your language writes them.
    local = pgettext("digits", "0123456789")
    if len(local) != 10:  # a broken translation must not garble numbers
        local = WESTERN
    return str.maketrans(WESTERN, local)


def local_digits(value: object) -> str:
    """`value` as text, its Western digits written in the active language's."""
    return str(value).translate(digits_table())


def local_error(error: ValidationError) -> str:
    """One form error's message as Django formats it, but with the numbers it
    was given ("at most %(limit_value)d characters") in the page's digits.
    What else it quotes stays as it is: a room code someone typed is still
    the code to type, digits and all."""
    params = error.params
    if not isinstance(params, dict) or not params:
        return next(iter(error))
    # Each value that is not a number goes in as a mark (a private-use
    # character, no digit in it) and comes back after the digits change.
    marks = {
        name: chr(0xE000 + i)
        for i, (name, value) in enumerate(params.items())
        if isinstance(value, bool) or not isinstance(value, int | float | Decimal)
    }
    text = local_digits(error.message % {**params, **marks})
    for name, mark in marks.items():
        text = text.replace(mark, str(params[name]))
    return text
