"""Who is playing: a Player is a guest on one device or a signed-in user.

Runs, best times and (later) seats in live rooms belong to a Player, never to
a User directly, so a guest can play at once and keep everything on sign-up.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext

from sitewide.numerals import local_digits

DISPLAY_NAME_MAX = 32


def guest_name() -> str:
    # In the language of the request that makes the guest: a Nepali page's
    # guest is "पाहुना ४८२१".
    number = local_digits(secrets.randbelow(9000) + 1000)
    return gettext("Guest %(number)s") % {"number": number}


def new_guest_token() -> str:
    return secrets.token_urlsafe(16)


class Player(models.Model):
    display_name = models.CharField(max_length=DISPLAY_NAME_MAX, default=guest_name)
    # Null for a guest, who is known by a signed cookie on their device.
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="player",
    )
    # What the guest cookie names (signed): random, so the cookie tells
    # nobody how many players there are or which id is next.
    guest_token = models.CharField(max_length=32, unique=True, default=new_guest_token)
    created = models.DateTimeField(auto_now_add=True)
    # The language a signed-in player chose (accounts/language.py): kept with
    # the account so every device they sign in on speaks it. "" = not chosen.
    language = models.CharField(max_length=16, blank=True, default="")
    # How a signed-in player likes the board to look (games/views.py
    # `looks`): tile set, table, sound, the view from above. {} = not chosen.
    looks = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class SignInEvent(models.Model):
    """A sign-in to an account, or a wrong password tried for it (the
    known-device sign-in, accounts.devices): the owner's profile shows the
    failures since their previous sign-in (accounts.sign_ins)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sign_in_events",
    )
    at = models.DateTimeField()
    succeeded = models.BooleanField()
    # Whether the device had signed in to this account before.
    known_device = models.BooleanField()

    class Meta:
        indexes = [models.Index(fields=["user", "-at"], name="sign_in_by_user")]

    def __str__(self) -> str:
        return f"{self.user_id} {'in' if self.succeeded else 'failed'} {self.at}"
