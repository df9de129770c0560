from django.contrib import admin

from games import admin_layouts  # noqa: F401  (registers the Layout admin)
from games.models import BestTime, Run


class ReadOnlyAdmin(admin.ModelAdmin):
    """Runs change only through games.actions; the admin only looks."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Run)
class RunAdmin(ReadOnlyAdmin):
    list_display = [
        "public_id",
        "player",
        "board_key",
        "status",
        "too_fast",
        "created",
    ]
    # "Too fast": wins faster than a person can tap, kept for a look.
    list_filter = ["too_fast", "status", "mode"]
    search_fields = ["public_id", "board_key", "player__display_name"]


@admin.register(BestTime)
class BestTimeAdmin(ReadOnlyAdmin):
    list_display = ["player", "board_key", "best_ms", "achieved"]
    search_fields = ["board_key", "player__display_name"]
