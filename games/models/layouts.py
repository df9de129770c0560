"""Layouts managed in Django admin.

A row holds the spec's positions; the engine's Layout checks the geometry on
save. A layout is playable only once a proof (a clearing order found by the
engine and replayed) is stored and an admin has published it: changing the
positions throws the proof away and takes the layout off the site until it is
proved again. Deals already made keep their own copy of the positions, so
editing a layout never changes a past daily or level.
"""

from django.core.exceptions import ValidationError
from django.db import models

from games.engine.catalogue import layout_from_json, layout_to_json
from games.engine.layout import Layout as EngineLayout
from games.engine.layout import LayoutError


class Layout(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for proof"
        VERIFIED = "verified", "Proved clearable"
        FAILED = "failed", "Not proved clearable"

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=64, unique=True)
    positions = models.JSONField(
        help_text="[[x, y, z], ...] in half-tile units, as the deal format says."
    )
    published = models.BooleanField(
        default=False, help_text="Shown to players; needs a proof first."
    )
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.PENDING, editable=False
    )
    # The clearing order that proves the layout clearable: [[a, b], ...] of
    # position indices, replayed before it is stored.
    witness = models.JSONField(null=True, blank=True, editable=False)
    status_message = models.CharField(max_length=300, blank=True, editable=False)
    proved_at = models.DateTimeField(null=True, blank=True, editable=False)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        try:
            self.engine_layout()
        except LayoutError as e:
            raise ValidationError({"positions": str(e)}) from None
        if self.published and not self.is_verified:
            raise ValidationError(
                {"published": "Prove the layout clearable before publishing it."}
            )

    @property
    def is_verified(self) -> bool:
        return self.status == self.Status.VERIFIED and bool(self.witness)

    def engine_layout(self) -> EngineLayout:
        """The engine's Layout for this row; raises LayoutError if invalid."""
        return layout_from_json(
            {"slug": self.slug, "name": self.name, "positions": self.positions}
        )

    def to_json(self) -> dict:
        return layout_to_json(self.engine_layout())
