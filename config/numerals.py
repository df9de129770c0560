"""Numbers in the page's own digits.

The digits of a language are a string in its catalogue: "0123456789" in
context "digits", which Nepali translates as "०१२३४५६७८९". A language that
writes Western digits leaves it as it is. The JavaScript side reads the same
string from Django's JavaScript catalog (static/js/i18n.js), so server and
browser agree.
"""

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
