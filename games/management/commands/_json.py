"""Shared helpers for the engine's command-line contract (the spec's JSON)."""

import json
import sys

from django.core.management.base import CommandError

from games.engine.catalogue import UnknownLayout
from games.engine.layout import Layout
from games.layouts import playable_layout


def print_json(data: object) -> None:
    sys.stdout.write(json.dumps(data, separators=(", ", ": ")) + "\n")


def read_json(path: str | None) -> object:
    """Parse JSON from a file, or standard input when path is None or '-'."""
    try:
        if path in (None, "-"):
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise CommandError(f"cannot read {path}: {e.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise CommandError(f"not valid JSON: {e.msg} at line {e.lineno}") from None


def layout_or_error(slug: str) -> Layout:
    try:
        return playable_layout(slug)
    except UnknownLayout as e:
        raise CommandError(str(e.args[0])) from None


def parse_seed(raw: str) -> str | int:
    """A seed of digits is the integer, as the spec allows either."""
    return int(raw) if raw.isdigit() else raw
