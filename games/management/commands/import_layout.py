from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.engine.kmahjongg import desktop_name
from games.engine.layout import LayoutError
from games.layout_actions import parse_layout_file, record_proof, upsert_layout


class Command(BaseCommand):
    help = (
        "Import a layout from a spec JSON or KMahjongg .layout file and prove "
        "it clearable. It stays unpublished until an admin publishes it."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--slug", help="defaults to the file's slug or name")
        parser.add_argument(
            "--name", help="defaults to the Name= of a .desktop file beside it"
        )
        parser.add_argument(
            "--replace", action="store_true", help="overwrite a layout with this slug"
        )

    def handle(self, *args, **opts):
        try:
            with open(opts["file"], encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise CommandError(f"cannot read {opts['file']}: {e}") from None
        name = opts["name"] or self._desktop_name(Path(opts["file"]))
        try:
            layout = parse_layout_file(text, opts["file"], opts["slug"], name)
        except LayoutError as e:
            raise CommandError(str(e)) from None
        row, changed = upsert_layout(layout, force=opts["replace"])
        if not changed and not opts["replace"]:
            raise CommandError(
                f"a layout {layout.slug!r} exists; pass --replace to overwrite it"
            )
        row = record_proof(row.pk)
        self.stdout.write(
            f"{row.slug}: {len(row.positions)} tiles, {row.get_status_display()}"
            f" ({row.status_message})"
        )

    def _desktop_name(self, path: Path) -> str | None:
        """KMahjongg ships each NAME.layout with a NAME.desktop naming it."""
        try:
            return desktop_name(path.with_suffix(".desktop").read_text("utf-8"))
        except (OSError, UnicodeDecodeError):
            return None
