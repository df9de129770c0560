"""collectstatic compresses each hashed file once (sitewide/static_storage.py)
and leaves the source maps as they are."""

from pathlib import Path

import brotli
from django.conf import settings
from servestatic.compress import Compressor

from sitewide.static_storage import CompressedManifestStorage


def test_a_rerun_compresses_only_what_is_new_or_cut_short(tmp_path, monkeypatch):
    storage = CompressedManifestStorage(location=tmp_path, base_url="/static/")
    for name in ("kept.js", "cut.js"):
        (tmp_path / name).write_text(f"const {name[:3]} = 1;\n" * 500)
    first = sorted(storage.compress_files({"kept.js", "cut.js"}))
    # A stopped run left cut.js's brotli copy short; new.js is new.
    (tmp_path / "cut.js.br").write_bytes((tmp_path / "cut.js.br").read_bytes()[:9])
    (tmp_path / "new.js").write_text("const n = 1;\n" * 500)
    made = []
    compress = Compressor.compress
    monkeypatch.setattr(
        Compressor,
        "compress",
        lambda self, path: made.append(Path(path).name) or compress(self, path),
    )
    second = sorted(storage.compress_files({"kept.js", "cut.js", "new.js"}))
    assert sorted(made) == ["cut.js", "new.js"]
    assert second == sorted([*first, ("new.js", "new.js.br"), ("new.js", "new.js.gz")])
    for name in ("kept.js", "cut.js", "new.js"):
        br = brotli.decompress((tmp_path / f"{name}.br").read_bytes())
        assert br == (tmp_path / name).read_bytes()


def test_source_maps_are_not_compressed():
    compressor = Compressor(extensions=settings.SERVESTATIC_SKIP_COMPRESS_EXTENSIONS)
    assert not compressor.should_compress("dist/game.js.53b530d4d13f.map")
    assert compressor.should_compress("dist/game.471ba1ce00dc.js")
