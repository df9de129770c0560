from django.contrib import admin

from games.admin import ReadOnlyAdmin
from rooms.models import Event, Member, Room, Round


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Room)
class RoomAdmin(ReadOnlyAdmin):
    """Rooms change only through rooms.actions (locked, versioned, published);
    the admin looks, and may delete an abandoned room."""

    list_display = ["code", "status", "host", "version", "created"]
    list_filter = ["status"]
    search_fields = ["code", "host__display_name"]
    inlines = [MemberInline]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["room", "number", "mode", "pile", "status", "dealt_at"]
    list_filter = ["mode", "status"]
    search_fields = ["room__code"]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["room", "version", "kind"]
    search_fields = ["room__code"]
