from django.core.management.base import BaseCommand

from games.layouts import playable_layouts


class Command(BaseCommand):
    help = "List the layouts, one per line: slug, tiles, levels, width, name."

    def handle(self, *args, **opts):
        for layout in playable_layouts():
            self.stdout.write(
                f"{layout.slug:<20} {len(layout):>3} tiles  {layout.levels} levels  "
                f"{layout.width:>2} wide  {layout.name}"
            )
