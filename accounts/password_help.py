"""What a new password must be, said in our own words and the page's
digits: Django's list of its validators' help texts is only partly in
Nepali and prints its numbers in Western digits."""

from django.contrib.auth.password_validation import MinimumLengthValidator
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_noop

from config.numerals import local_digits

# Django's own message when the two passwords differ, which its Nepali
# catalogue lacks: marked here so ours carries the translation.
gettext_noop("The two password fields didn’t match.")


def _password_help() -> str:
    text = gettext(
        "At least %(length)s characters, not all digits, not a common password"
        " and not like your user name."
    )
    return text % {"length": local_digits(MinimumLengthValidator().min_length)}


password_help = lazy(_password_help, str)
