"""Changes to Layout rows: save, prove, publish, import.

Each action validates, locks the row, applies and saves, so the admin, the
management commands and the Celery task all change layouts the same way.
"""

import json
import re

from django.db import transaction
from django.utils import timezone

from games.engine.catalogue import builtin_layouts, layout_from_json
from games.engine.kmahjongg import layout_from_kmahjongg
from games.engine.layout import Layout as EngineLayout
from games.engine.layout import LayoutError
from games.models import Layout
from games.proofs import prove_layout


class PublishError(ValueError):
    pass


def _positions(layout: EngineLayout) -> list[list[int]]:
    return [list(p) for p in layout.positions]


def forget_proof(row: Layout) -> None:
    """New positions need a new proof; until then nobody can play them."""
    row.status = Layout.Status.PENDING
    row.witness = None
    row.status_message = ""
    row.proved_at = None
    row.published = False


def save_layout(row: Layout, positions_changed: bool) -> Layout:
    """Save an edited row (already validated by full_clean)."""
    if positions_changed:
        forget_proof(row)
    row.save()
    return row


def upsert_layout(layout: EngineLayout, *, force: bool = True) -> tuple[Layout, bool]:
    """Create the row for an engine layout, or update its name and positions.

    With force False an existing row is left as it is. Returns (row, changed).
    """
    with transaction.atomic():
        row = Layout.objects.select_for_update().filter(slug=layout.slug).first()
        if row is None:
            row = Layout(slug=layout.slug)
        elif not force:
            return row, False
        new = _positions(layout)
        changed = row.pk is None or row.positions != new or row.name != layout.name
        if changed:
            if row.positions != new:
                forget_proof(row)
            row.name, row.positions = layout.name, new
            row.save()
    return row, changed


def record_proof(pk: int) -> Layout:
    """Prove the row's layout clearable and store the witness (or the failure).

    The proof runs outside the lock; it is stored only if the positions did
    not change meanwhile, so a stale proof never lands on new geometry.
    """
    row = Layout.objects.get(pk=pk)
    positions = row.positions
    try:
        witness, check = prove_layout(row.engine_layout())
    except LayoutError as e:
        witness, message = None, str(e)
    else:
        message = check.message
    with transaction.atomic():
        row = Layout.objects.select_for_update().get(pk=pk)
        if row.positions != positions:
            return row
        row.status = Layout.Status.VERIFIED if witness else Layout.Status.FAILED
        row.witness = [list(p) for p in witness] if witness else None
        row.status_message = message[:300]
        row.proved_at = timezone.now()
        if not witness:
            row.published = False
        row.save()
    return row


def set_published(pk: int, published: bool) -> Layout:
    with transaction.atomic():
        row = Layout.objects.select_for_update().get(pk=pk)
        if published and not row.is_verified:
            raise PublishError(f"{row.name} is not proved clearable yet")
        row.published = published
        row.save(update_fields=["published", "updated"])
    return row


def load_builtin_layouts(force: bool = False) -> list[tuple[Layout, str]]:
    """Rows for the engine's built-in layouts, proved and published.

    Returns (row, what happened) for each. Existing rows are kept as the
    admin left them unless `force`.
    """
    out = []
    for layout in builtin_layouts().values():
        row, changed = upsert_layout(layout, force=force)
        if changed or not row.is_verified:
            row = record_proof(row.pk)
            if row.is_verified:
                row = set_published(row.pk, True)
            out.append((row, "loaded" if row.is_verified else "not proved"))
        else:
            out.append((row, "unchanged"))
    return out


def _slug_from(filename: str) -> str:
    stem = re.sub(r"\.(layout|json)$", "", filename.rsplit("/", 1)[-1])
    return re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "imported"


def parse_layout_file(
    text: str, filename: str, slug: str | None = None, name: str | None = None
) -> EngineLayout:
    """A layout from spec JSON or KMahjongg text (told apart by the first
    character); raises LayoutError (and its KMahjongg subclass) if invalid."""
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise LayoutError(f"not valid JSON: {e.msg} at line {e.lineno}") from None
        if isinstance(data, dict):
            data = {**data, **({"slug": slug} if slug else {})}
            data = {**data, **({"name": name} if name else {})}
        return layout_from_json(data)
    slug = slug or _slug_from(filename)
    return layout_from_kmahjongg(text, slug, name or slug.replace("-", " ").title())
