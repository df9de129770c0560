from django.core.management.base import BaseCommand

from sitewide.js_catalog import DIRECTORY, write_catalogs


class Command(BaseCommand):
    help = (
        "Write each language's JavaScript catalogue into static/dist/i18n/ "
        "(from the compiled .mo files), for collectstatic to hash."
    )

    def handle(self, *args, **options) -> None:
        for language in write_catalogs():
            self.stdout.write(f"{DIRECTORY / language}.js")
