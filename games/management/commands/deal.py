from django.core.management.base import BaseCommand, CommandError

from games.engine.deal import DealError, generate_deal
from games.engine.formats import deal_to_json
from games.management.commands._json import (
    layout_or_error,
    parse_seed,
    print_json,
)


class Command(BaseCommand):
    help = "Print the deal for a layout and seed, with its witness solution."

    def add_arguments(self, parser):
        parser.add_argument("layout", help="layout slug, e.g. turtle")
        parser.add_argument("--seed", required=True, help="a string or an integer")
        parser.add_argument(
            "--quads",
            type=int,
            default=None,
            help="how many faces come as all four copies (deals under 144 tiles)",
        )

    def handle(self, *args, **opts):
        layout = layout_or_error(opts["layout"])
        try:
            deal = generate_deal(layout, parse_seed(opts["seed"]), opts["quads"])
        except DealError as e:
            raise CommandError(str(e)) from None
        print_json(deal_to_json(deal))
