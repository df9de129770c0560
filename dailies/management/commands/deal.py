"""manage.py deal: a deal by layout and seed, or a stored daily or level deal.

It lives in dailies, which knows every kind of deal; games knows none of
dailies."""

from django.core.management.base import BaseCommand, CommandError

from dailies.cli import stored_deal
from games.engine.deal import DealError, generate_deal
from games.engine.formats import deal_to_json
from games.management.commands._json import (
    layout_or_error,
    parse_seed,
    print_json,
)


class Command(BaseCommand):
    help = (
        "Print the deal for a layout and seed, or the stored daily or level deal,"
        " with its witness solution."
    )

    def add_arguments(self, parser):
        parser.add_argument("layout", nargs="?", help="layout slug, e.g. turtle")
        parser.add_argument("--seed", help="a string or an integer")
        parser.add_argument(
            "--daily", metavar="YYYY-MM-DD", help="print the stored daily deal"
        )
        parser.add_argument("--level", type=int, help="print the stored level deal")
        parser.add_argument(
            "--quads",
            type=int,
            default=None,
            help="how many faces come as all four copies (deals under 144 tiles)",
        )

    def handle(self, *args, **opts):
        if opts["daily"] is not None or opts["level"] is not None:
            print_json(deal_to_json(stored_deal(**_stored_args(opts))))
            return
        if not opts["layout"] or opts["seed"] is None:
            raise CommandError("give LAYOUT --seed S, LAYOUT --daily D or --level N")
        layout = layout_or_error(opts["layout"])
        try:
            deal = generate_deal(layout, parse_seed(opts["seed"]), opts["quads"])
        except DealError as e:
            raise CommandError(str(e)) from None
        print_json(deal_to_json(deal))


def _stored_args(opts: dict) -> dict:
    if opts["seed"] is not None or opts["quads"] is not None:
        raise CommandError("--seed and --quads do not go with --daily or --level")
    return {"layout": opts["layout"], "daily": opts["daily"], "level": opts["level"]}
