"""Making, checking and reading the stored daily and level deals.

`daily_deal` and `level_deal` are what every caller uses: the Celery tasks
(ahead of time), the board resolvers and the `deal` command (on request, when
no worker made the deal yet). The first caller makes the row; a second caller
racing it gets the unique constraint's IntegrityError and reads the winner's
row, so a stored deal is never made twice or replaced.
"""

from datetime import date

from django.conf import settings
from django.db import IntegrityError, transaction

from dailies.levels import level_spec
from dailies.models import DailyDeal, LevelDeal, StoredDeal
from games.engine.catalogue import get_layout
from games.engine.commitment import SCHEME, SEEDED_SCHEME, commitment, deal_seed
from games.engine.deal import Deal, generate_deal
from games.engine.formats import deal_to_json
from games.engine.layout import Layout
from games.layouts import playable_layout
from games.proofs import SOLVER_NODES, check_deal, replay_error

# The daily everyone sees first: the turtle stood up for phones.
HEADLINE_LAYOUT = "tall-turtle"
# A deal made on request is checked with a small solver budget so the player
# never waits long (the witness replay already proves it clears); the task
# finishes any check this budget leaves open.
REQUEST_SOLVER_NODES = 20_000


class DealCheckFailed(RuntimeError):
    """A freshly made deal whose witness does not replay: never stored."""


def deal_of(row: StoredDeal) -> Deal:
    """The engine Deal a stored row holds, exactly as it was dealt."""
    layout = Layout(
        slug=row.layout_slug,
        name=row.layout_name,
        positions=tuple(tuple(p) for p in row.positions),
    )
    return Deal(
        layout=layout,
        seed=row.seed,
        faces=tuple(row.faces),
        solution=tuple((a, b) for a, b in row.witness),
    )


def scheme_of(row: StoredDeal) -> str:
    """Rows made before deal seeds keep their salted commitment."""
    return SEEDED_SCHEME if row.deal_seed else SCHEME


def secret_deal(
    layout: Layout, public_seed: str, quads: int | None = None
) -> tuple[Deal, str]:
    """The site's deal for a public seed, and the deal seed it is drawn from.

    The same layout and public seed always give the same deal on this site
    (the secret does not change), but the public code alone cannot make it.
    """
    seed = deal_seed(settings.DEAL_SECRET, layout.slug, public_seed)
    return generate_deal(layout, seed, quads), seed


def _fields(deal: Deal, seed: str, public_seed: str) -> dict:
    """Row fields for a new deal, after checking its witness replays.

    The solver's check comes later (`verify`), so that a request that must
    make a missing deal answers quickly. The commitment to the deal, its
    witness and its deal seed is made here, with the deal, and never again.
    """
    error = replay_error(deal.layout, deal.faces, deal.solution)
    if error:
        raise DealCheckFailed(f"{deal.layout.slug} seed {public_seed!r}: {error}")
    tiles = deal_to_json(deal)["tiles"]
    return {
        "deal_seed": seed,
        "commitment": commitment(tiles, deal.solution, seed, SEEDED_SCHEME),
        "layout_slug": deal.layout.slug,
        "layout_name": deal.layout.name,
        "positions": [list(p) for p in deal.layout.positions],
        "seed": public_seed,
        "faces": list(deal.faces),
        "witness": [list(p) for p in deal.solution],
    }


def _get_or_make(
    model, lookup: dict, make, extra: dict | None = None
) -> tuple[StoredDeal, bool]:
    row = model.objects.filter(**lookup).first()
    if row is not None:
        return row, False
    fields = _fields(*make())
    try:
        with transaction.atomic():
            return model.objects.create(**{**fields, **lookup, **(extra or {})}), True
    except IntegrityError:
        return model.objects.get(**lookup), False


def daily_row(layout_slug: str, day: date) -> tuple[DailyDeal, bool]:
    """The stored daily for a layout and day, made if missing; (row, made).

    Only a published layout gets new dailies (UnknownLayout otherwise); the
    public seed is the date itself, as the deal format's example shows.
    """

    def make() -> tuple[Deal, str, str]:
        public = day.isoformat()
        return *secret_deal(playable_layout(layout_slug), public), public

    return _get_or_make(DailyDeal, {"layout_slug": layout_slug, "date": day}, make)


def level_row(n: int) -> tuple[LevelDeal, bool]:
    spec = level_spec(n)

    def make() -> tuple[Deal, str, str]:
        layout = get_layout(spec.layout_slug)
        return *secret_deal(layout, spec.seed, spec.quads), spec.seed

    return _get_or_make(LevelDeal, {"number": n}, make, {"quads": spec.quads})


def daily_deal(layout_slug: str, day: date) -> Deal:
    return deal_of(daily_row(layout_slug, day)[0])


def level_deal(n: int) -> Deal:
    return deal_of(level_row(n)[0])


def verify(row: StoredDeal, max_nodes: int = SOLVER_NODES) -> StoredDeal:
    """Replay the witness and run the solver on a stored deal; keep the result.

    Checking never changes the deal itself: a deal, once stored, stays. A
    check that stops at its node limit leaves the row unverified, for the
    next task run to try again.
    """
    if row.verified:
        return row
    check = check_deal(deal_of(row), max_nodes)
    type(row).objects.filter(pk=row.pk).update(
        verified=check.verified, check_message=check.message[:300]
    )
    row.verified, row.check_message = check.verified, check.message[:300]
    return row
