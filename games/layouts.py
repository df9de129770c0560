"""Which layouts players can pick: the one place the site asks.

Published layouts with a stored proof come from the admin's Layout rows; when
the table is empty (a fresh checkout before `load_layouts`, or a test) the
engine's built-in files stand in, so the site always has something to deal.
"""

from functools import lru_cache

from django.db import OperationalError, ProgrammingError

from games.engine.catalogue import UnknownLayout, builtin_layouts, get_layout
from games.engine.layout import Layout


def _sorted(layouts) -> list[Layout]:
    return sorted(layouts, key=lambda lay: (len(lay), lay.name))


@lru_cache(maxsize=128)
def _engine_layout(slug: str, name: str, positions: tuple) -> Layout:
    # Building the bitmasks costs a few ms for a big layout: build each
    # version of a row once per process.
    return Layout(slug=slug, name=name, positions=positions)


def _from_row(slug: str, name: str, positions: list) -> Layout:
    return _engine_layout(slug, name, tuple(tuple(p) for p in positions))


def _rows_in_use() -> bool:
    """True once the Layout table has rows; until then the files stand in."""
    from games.models import Layout as LayoutRow

    try:
        return LayoutRow.objects.exists()
    except (OperationalError, ProgrammingError):
        # No table yet: a checkout that has not run `migrate`.
        return False


def _playable_rows():
    from games.models import Layout as LayoutRow

    if not _rows_in_use():
        return None
    return LayoutRow.objects.filter(
        published=True, status=LayoutRow.Status.VERIFIED, witness__isnull=False
    ).values_list("slug", "name", "positions")


def playable_layouts() -> list[Layout]:
    rows = _playable_rows()
    if rows is None:
        return _sorted(builtin_layouts().values())
    return _sorted(_from_row(*row) for row in rows)


def playable_layout(slug: str) -> Layout:
    """The layout for `slug`; raises games.engine.catalogue.UnknownLayout."""
    rows = _playable_rows()
    if rows is None:
        return get_layout(slug)
    row = rows.filter(slug=slug).first()
    if row is None:
        raise UnknownLayout(f"no published layout {slug!r}")
    return _from_row(*row)


def layout_statuses() -> list[tuple[Layout, str]]:
    """Every layout the site knows, published or not, with its status."""
    from games.models import Layout as LayoutRow

    if not _rows_in_use():
        return [(lay, "built-in, not loaded") for lay in playable_layouts()]
    out = []
    for row in LayoutRow.objects.all():
        status = row.get_status_display().lower()
        if row.published:
            status = f"published, {status}"
        out.append((_from_row(row.slug, row.name, row.positions), status))
    return sorted(out, key=lambda pair: (len(pair[0]), pair[0].name))
