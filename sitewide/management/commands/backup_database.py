"""A dump of the site's PostgreSQL database (pg_dump), and old ones cleared.

Run by deploy/systemd/tiles-backup.timer; docs/OPERATIONS.md says how to
restore one. The connection is the site's own (DATABASE_URL, read as the
settings read it, through Django's client for PostgreSQL: host, port,
user, password, sslmode...), so there is no second place to configure it.

Each dump is written under a temporary name and renamed when complete: a
dump that failed halfway is never mistaken for a good one, and the
retention counts only complete ones. The newest `--keep-last` dumps are
kept whatever their age, so a backup that stops working never leaves the
folder empty.
"""

import os
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

PREFIX = "tiles-"
SUFFIX = ".dump"


class Command(BaseCommand):
    help = "Dump the database with pg_dump into a folder and clear old dumps."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dir", default="var/backups", type=Path)
        parser.add_argument(
            "--keep-days",
            type=int,
            default=14,
            help="dumps older than this many days are removed (default 14)",
        )
        parser.add_argument(
            "--keep-last",
            type=int,
            default=3,
            help="the newest this many are kept whatever their age (default 3)",
        )

    def handle(self, *args, dir: Path, keep_days: int, keep_last: int, **options):
        if connection.vendor != "postgresql":
            raise CommandError("backups are for PostgreSQL (DATABASE_URL)")
        # Everything the site knows is in a dump: for its owner's eyes only.
        os.umask(0o077)
        dir.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        final = dir / f"{PREFIX}{stamp}{SUFFIX}"
        partial = dir / f".{final.name}.partial"
        # psql's arguments and environment for this connection, from Django.
        args, env = connection.client.settings_to_cmd_args_env(
            connection.settings_dict, []
        )
        dump = ["pg_dump", "--format=custom", "--no-owner", "--no-privileges"]
        dump += [*args[1:], f"--file={partial}"]
        try:
            subprocess.run(dump, env={**os.environ, **(env or {})}, check=True)
        except (OSError, subprocess.CalledProcessError) as error:
            partial.unlink(missing_ok=True)
            raise CommandError(f"pg_dump failed: {error}") from error
        partial.rename(final)
        removed = self._clear(dir, keep_days, keep_last)
        self.stdout.write(
            f"{final} ({final.stat().st_size} bytes); {removed} old dump(s) removed"
        )

    def _clear(self, dir: Path, keep_days: int, keep_last: int) -> int:
        dumps = sorted(dir.glob(f"{PREFIX}*{SUFFIX}"), key=lambda p: p.stat().st_mtime)
        cutoff = time.time() - keep_days * 86400
        removed = 0
        for path in dumps[: max(0, len(dumps) - keep_last)]:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        return removed
