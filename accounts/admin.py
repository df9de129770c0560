from django.contrib import admin

from accounts.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "created"]
    search_fields = ["display_name", "user__username"]
    raw_id_fields = ["user"]
