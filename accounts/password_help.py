"""What a new password must be, said in our own words and the page's
digits: Django's list of its validators' help texts is only partly in
Nepali and prints its numbers in Western digits."""

from django.contrib.auth import password_validation
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop, ngettext

from sitewide.numerals import local_digits

# Django's own message when the two passwords differ, which its Nepali
# catalogue lacks: marked here so ours carries the translation.
gettext_noop("The two password fields didn’t match.")


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's, with its number left to the form's error rendering
    (sitewide.numerals.local_error writes it in the page's digits): Django's
    own message comes with the number already in it, in Western digits,
    and in a wording its Nepali catalogue does not translate."""

    def get_error_message(self) -> str:
        # The "%(min_length)d" is filled from the ValidationError's params.
        return ngettext(
            "This password is too short. It must contain at least"
            " %(min_length)d character.",
            "This password is too short. It must contain at least"
            " %(min_length)d characters.",
            self.min_length,
        )


def _password_help() -> str:
    text = gettext(
        "At least %(length)s characters, not all digits, not a common password"
        " and not like your user name."
    )
    return text % {"length": local_digits(MinimumLengthValidator().min_length)}


password_help = lazy(_password_help, str)
