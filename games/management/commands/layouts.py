from django.core.management.base import BaseCommand

from games.layouts import layout_statuses


class Command(BaseCommand):
    help = "List the layouts, one per line: slug, tiles, levels, width, status, name."

    def handle(self, *args, **opts):
        for layout, status in layout_statuses():
            self.stdout.write(
                f"{layout.slug:<20} {len(layout):>3} tiles  {layout.levels} levels  "
                f"{layout.width:>2} wide  {status:<30} {layout.name}"
            )
