from django.core.management.base import BaseCommand

from games.layout_actions import load_builtin_layouts


class Command(BaseCommand):
    help = (
        "Create Layout rows for the engine's built-in layouts, proved and "
        "published. Rows that exist are left as the admin left them unless --force."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="overwrite existing rows with the built-in files",
        )

    def handle(self, *args, **opts):
        for row, what in load_builtin_layouts(force=opts["force"]):
            if what != "unchanged" or opts["verbosity"] > 1:
                self.stdout.write(f"{row.slug:<20} {what}")
