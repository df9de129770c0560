from django.contrib import admin, messages
from django.db.models import QuerySet

from games import actions, admin_layouts  # noqa: F401  (registers the Layout admin)
from games.models import BestTime, Run, TimeForReview
from games.pace import QUICK_PLAYER_PAIR_MS, quick_player_ms


def seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s"


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
    list_filter = ["too_fast", "review", "status", "mode"]
    search_fields = ["public_id", "board_key", "player__display_name"]


@admin.register(BestTime)
class BestTimeAdmin(ReadOnlyAdmin):
    list_display = ["player", "board_key", "best_ms", "achieved"]
    search_fields = ["board_key", "player__display_name"]


@admin.register(TimeForReview)
class TimeForReviewAdmin(admin.ModelAdmin):
    """Clean daily clears faster than the hard bot's expected time on their
    deal (games.pace): each waits here until an admin approves it (it then
    ranks and counts as a best time) or rejects it (never ranked)."""

    list_display = [
        "public_id",
        "player",
        "board_key",
        "time",
        "quick_player",
        "fastest_pair",
        "finished",
    ]
    list_filter = ["board_key"]
    search_fields = ["public_id", "board_key", "player__display_name"]
    fields = [
        "public_id",
        "player",
        "board_key",
        "time",
        "quick_player",
        "pair_times",
        "hints",
        "undos",
        "created",
        "finished",
    ]
    readonly_fields = fields
    actions = ["approve", "reject"]
    ordering = ["finished"]

    def get_queryset(self, request) -> QuerySet:
        return super().get_queryset(request).filter(review=Run.Review.WAITING)

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="time")
    def time(self, run: Run) -> str:
        return seconds(run.banked_ms)

    @admin.display(description=f"hard bot, {QUICK_PLAYER_PAIR_MS} ms a pair")
    def quick_player(self, run: Run) -> str:
        return seconds(quick_player_ms(run.pairs))

    @admin.display(description="fastest pair")
    def fastest_pair(self, run: Run) -> str:
        return f"{min(run.pair_ms, default=0)} ms"

    @admin.display(description="each pair (ms after the one before)")
    def pair_times(self, run: Run) -> str:
        return ", ".join(str(ms) for ms in run.pair_ms)

    def _decide(self, request, queryset: QuerySet, approve: bool) -> None:
        run_ids = list(queryset.values_list("public_id", flat=True))
        for run_id in run_ids:
            actions.review_time(run_id, approve)
        verdict = "approved: they rank now" if approve else "rejected"
        self.message_user(request, f"{len(run_ids)} times {verdict}.", messages.SUCCESS)

    @admin.action(description="Approve: the time ranks", permissions=["change"])
    def approve(self, request, queryset: QuerySet) -> None:
        self._decide(request, queryset, approve=True)

    @admin.action(description="Reject: the time never ranks", permissions=["change"])
    def reject(self, request, queryset: QuerySet) -> None:
        self._decide(request, queryset, approve=False)
