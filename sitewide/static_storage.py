"""collectstatic's storage: hashed names and precompressed copies (gzip,
brotli) as ServeStatic makes them, compressing only what is new.

A hashed name's content never changes, so the .br and .gz an earlier
collectstatic made for it still hold: compressing them again cost most of a
rerun (brotli at its best quality takes seconds per bundle here). Django
writes some hashed files again on every run (those whose references it
rewrites, the bundles among them), so a copy is judged by its content: it
is kept when it decompresses to the file's bytes (a copy cut short by a
stopped run does not, and is made again).
"""

import gzip
from collections.abc import Iterator
from pathlib import Path

import brotli
from servestatic import compress
from servestatic.storage import CompressedManifestStaticFilesStorage

DECOMPRESS = {".br": brotli.decompress, ".gz": gzip.decompress}
if compress.zstd is not None:  # Python 3.14 on: ServeStatic makes .zstd too
    DECOMPRESS[".zstd"] = compress.zstd.decompress


class CompressedManifestStorage(CompressedManifestStaticFilesStorage):
    def compress_files(self, paths: set[str]) -> Iterator[tuple[str, str]]:
        done = {path for path in paths if self._compressed_before(path)}
        for path in sorted(done):
            for suffix in DECOMPRESS:
                yield path, path + suffix
        yield from super().compress_files(paths - done)

    def _compressed_before(self, path: str) -> bool:
        source = Path(self.path(path))
        copies = {suffix: Path(f"{source}{suffix}") for suffix in DECOMPRESS}
        if not all(copy.exists() for copy in copies.values()):
            return False
        data = source.read_bytes()
        try:
            return all(
                DECOMPRESS[suffix](copy.read_bytes()) == data
                for suffix, copy in copies.items()
            )
        except (brotli.error, OSError, EOFError, ValueError):
            return False
