"""Signals other apps listen to, so accounts needs no import of them."""

from django.dispatch import Signal

# Sent inside the transaction that folds a guest into an account, before the
# guest row is deleted: each app moves its own records from `source` to
# `target` (both Player, both locked). Arguments: source, target.
player_merging = Signal()

# Sent as a profile page is drawn: each app returns a dict of what it adds
# to the page's template context for that player (a Player, maybe not yet
# saved). Arguments: player.
profile_shown = Signal()
