from django.core.management.base import BaseCommand

from games.engine.catalogue import layout_to_json
from games.management.commands._json import layout_or_error, print_json


class Command(BaseCommand):
    help = "Print a layout in the spec's JSON."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, *args, **opts):
        print_json(layout_to_json(layout_or_error(opts["slug"])))
