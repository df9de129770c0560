"""Admin for layouts: edit, prove, publish, import and export.

Saving checks the geometry through the engine (the message names the tiles
that overlap); new positions are proved by the Celery task `prove_layout`
once the save commits, and the layout cannot be published before that.
"""

import json

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from games.engine.layout import LayoutError
from games.layout_actions import (
    PublishError,
    parse_layout_file,
    save_layout,
    set_published,
    upsert_layout,
)
from games.layout_svg import top_views
from games.models import Layout
from games.tasks import prove_layout

MAX_UPLOAD = 256 * 1024


def _prove_after_commit(pk: int) -> None:
    transaction.on_commit(lambda: prove_layout.delay(pk))


class ImportForm(forms.Form):
    file = forms.FileField(help_text="Spec JSON, or a KMahjongg .layout file.")
    slug = forms.SlugField(required=False, help_text="Defaults to the file's.")
    name = forms.CharField(required=False, max_length=100)
    replace = forms.BooleanField(
        required=False, help_text="Replace the layout with the same slug."
    )

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is None:
            return data
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError("That file is too big for a layout.")
        try:
            text = upload.read().decode("utf-8")
            data["layout"] = parse_layout_file(
                text, upload.name, data.get("slug") or None, data.get("name") or None
            )
        except UnicodeDecodeError:
            raise forms.ValidationError("The file is not UTF-8 text.") from None
        except LayoutError as e:
            raise forms.ValidationError(str(e)) from None
        exists = Layout.objects.filter(slug=data["layout"].slug).exists()
        if exists and not data.get("replace"):
            raise forms.ValidationError(
                f"A layout {data['layout'].slug!r} exists; tick Replace to overwrite."
            )
        return data


@admin.register(Layout)
class LayoutAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "tiles", "levels", "width", "status", "published"]
    list_filter = ["status", "published"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = [
        "status",
        "status_message",
        "proved_at",
        "witness_steps",
        "export_link",
        "top_view",
    ]
    fields = [
        "name",
        "slug",
        "published",
        "positions",
        "status",
        "status_message",
        "proved_at",
        "witness_steps",
        "export_link",
        "top_view",
    ]
    actions = ["prove", "publish", "unpublish"]
    change_list_template = "admin/games/layout/change_list.html"

    # -- columns and read-only fields ------------------------------------
    def _engine(self, obj):
        try:
            return obj.engine_layout()
        except LayoutError:
            return None

    @admin.display(description="tiles")
    def tiles(self, obj) -> int:
        return len(obj.positions or [])

    @admin.display(description="levels")
    def levels(self, obj):
        layout = self._engine(obj)
        return layout.levels if layout else "-"

    @admin.display(description="width")
    def width(self, obj):
        layout = self._engine(obj)
        return layout.width if layout else "-"

    @admin.display(description="witness")
    def witness_steps(self, obj) -> str:
        if not obj.witness:
            return "none yet"
        return f"{len(obj.witness)} pairs, replayed on the engine"

    @admin.display(description="spec JSON")
    def export_link(self, obj):
        if not obj.pk:
            return "-"
        url = reverse("admin:games_layout_export", args=[obj.pk])
        return format_html('<a href="{}">Download {}.json</a>', url, obj.slug)

    @admin.display(description="top view")
    def top_view(self, obj):
        layout = self._engine(obj) if obj.pk else None
        if layout is None:
            return "-"
        # The SVG holds nothing but numbers made here, so it is safe markup.
        return format_html_join(
            "",
            '<figure style="display:inline-block;margin:0 1em 1em 0">{}'
            "<figcaption>level {}</figcaption></figure>",
            ((mark_safe(svg), z) for z, svg in top_views(layout)),
        )

    # -- saving ----------------------------------------------------------
    def save_model(self, request, obj, form, change):
        changed = not change or "positions" in form.changed_data
        save_layout(obj, positions_changed=changed)
        if changed:
            _prove_after_commit(obj.pk)
            self.message_user(
                request, f"{obj.name}: proving it clearable; publish it once proved."
            )

    # -- actions ---------------------------------------------------------
    @admin.action(description="Prove clearable again")
    def prove(self, request, queryset):
        for pk in queryset.values_list("pk", flat=True):
            _prove_after_commit(pk)
        self.message_user(request, f"Proof queued for {queryset.count()} layouts.")

    @admin.action(description="Publish (proved layouts only)")
    def publish(self, request, queryset):
        for pk in queryset.values_list("pk", flat=True):
            try:
                set_published(pk, True)
            except PublishError as e:
                self.message_user(request, str(e), level=messages.ERROR)

    @admin.action(description="Unpublish")
    def unpublish(self, request, queryset):
        for pk in queryset.values_list("pk", flat=True):
            set_published(pk, False)

    # -- import and export -----------------------------------------------
    def get_urls(self):
        own = [
            path(
                "import/",
                self.admin_site.admin_view(self.import_view),
                name="games_layout_import",
            ),
            path(
                "<int:pk>/export/",
                self.admin_site.admin_view(self.export_view),
                name="games_layout_export",
            ),
        ]
        return own + super().get_urls()

    def import_view(self, request):
        if not self.has_add_permission(request):
            return redirect("admin:index")
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            row, _ = upsert_layout(form.cleaned_data["layout"])
            if not row.is_verified:
                _prove_after_commit(row.pk)
            self.message_user(
                request, f"Imported {row.name} ({len(row.positions)} tiles)."
            )
            return redirect(reverse("admin:games_layout_change", args=[row.pk]))
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "form": form,
            "title": "Import a layout",
        }
        return render(request, "admin/games/layout/import.html", context)

    def export_view(self, request, pk: int):
        if not self.has_view_permission(request):
            return redirect("admin:index")
        row = Layout.objects.get(pk=pk)
        response = HttpResponse(
            json.dumps(row.to_json(), indent=1), content_type="application/json"
        )
        response["Content-Disposition"] = f'attachment; filename="{row.slug}.json"'
        return response
