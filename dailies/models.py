"""Stored deals for the daily boards and the 100 levels.

A deal is made once, checked (the generator's witness replayed, the solver
run on its own) and then kept as faces per slot together with a copy of the
positions, so a date or a level number always names the same board even if
the layout is edited or the generator changes later.
"""

from django.db import models


class StoredDeal(models.Model):
    layout_slug = models.CharField(max_length=64)
    layout_name = models.CharField(max_length=100)
    positions = models.JSONField()  # [[x, y, z], ...] as dealt
    seed = models.JSONField()  # a str or an int, as the engine took it
    faces = models.JSONField()  # the face on each slot, slot = position index
    witness = models.JSONField()  # [[a, b], ...]: a clearing order
    # What the deal was drawn from, HMAC(DEAL_SECRET, seed), kept secret
    # until the deal may be revealed; `commitment` is the SHA-256 of
    # games.engine.commitment's encoding of the deal, the witness and the
    # deal seed, published from the start. Deals made before deal seeds
    # have a random `salt` in its place (scheme 1) and no deal seed.
    deal_seed = models.CharField(max_length=64, blank=True)
    salt = models.CharField(max_length=64, blank=True)
    commitment = models.CharField(max_length=64, blank=True)
    verified = models.BooleanField(default=False)
    check_message = models.CharField(max_length=300, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class DailyDeal(StoredDeal):
    date = models.DateField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["layout_slug", "date"], name="one_daily_per_layout_and_day"
            )
        ]
        ordering = ["-date", "layout_slug"]

    def __str__(self) -> str:
        return f"{self.date} {self.layout_slug}"


class LevelDeal(StoredDeal):
    number = models.PositiveSmallIntegerField(unique=True)
    quads = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"level {self.number} ({self.layout_slug})"
