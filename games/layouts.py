"""Which layouts players can pick. The one place the site asks for layouts,
so where they come from (engine files now, the admin's Layout rows later)
can change without touching callers."""

from games.engine.catalogue import builtin_layouts, get_layout
from games.engine.layout import Layout


def playable_layouts() -> list[Layout]:
    return sorted(builtin_layouts().values(), key=lambda lay: (len(lay), lay.name))


def playable_layout(slug: str) -> Layout:
    """The layout for `slug`; raises games.engine.catalogue.UnknownLayout."""
    return get_layout(slug)
