"""The command-line contract: deal, solve, layouts, export_layout."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from games.engine.board import Board
from games.engine.catalogue import get_layout
from games.engine.formats import position_from_json
from tests.services import server_env

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "fixtures" / "cases"
# The commands ask games.layouts, which reads the Layout table.
pytestmark = pytest.mark.django_db
# A test that runs manage.py as a child commits nothing and holds no
# transaction open, so the child reads the same empty test database (an open
# SQLite write transaction would leave it waiting for the lock).
in_a_child = pytest.mark.django_db(transaction=True)


def own_database_env() -> dict[str, str]:
    """The child's environment: the test's own database, never the
    developer's (where `make run` has loaded the layouts)."""
    if connection.vendor == "postgresql":
        return server_env()
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.command_settings",
        "TILES_TEST_SQLITE": str(connection.settings_dict["NAME"]),
    }


def manage(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=own_database_env(),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deal_prints_the_spec_json_with_a_witness_that_replays(capsys):
    call_command("deal", "turtle", "--seed", "2026-11-30")
    deal = json.loads(capsys.readouterr().out)
    assert deal["format"] == "mahjong-deal/1"
    assert deal["layout"] == "turtle" and deal["seed"] == "2026-11-30"
    assert len(deal["tiles"]) == 144
    assert {t["id"] for t in deal["tiles"]} == set(range(144))
    board = position_from_json(deal).board
    for a, b in deal["solution"]:
        board.take(a, b)
    assert board.cleared


def test_a_numeric_seed_is_an_integer(capsys):
    call_command("deal", "small", "--seed", "42")
    assert json.loads(capsys.readouterr().out)["seed"] == 42


@in_a_child
def test_deal_is_identical_in_two_processes():
    first = manage("deal", "turtle", "--seed", "abc")
    second = manage("deal", "turtle", "--seed", "abc")
    assert first.returncode == 0 and first.stdout == second.stdout


@in_a_child
def test_solve_reads_a_position_from_stdin_and_its_solution_replays(capsys):
    call_command("deal", "small", "--seed", "9")
    deal = capsys.readouterr().out
    result = manage("solve", stdin=deal)
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["solvable"] is True
    assert set(answer) == {"solvable", "solution", "nodes", "ms"}
    board = position_from_json(json.loads(deal)).board
    for a, b in answer["solution"]:
        board.take(a, b)
    assert board.cleared


def test_solve_reads_a_file_and_keeps_the_positions_ids(tmp_path, capsys):
    # Ids need not be 0..n-1: the answer must speak in the file's ids.
    position = {
        "tiles": [
            {"id": 70, "x": 0, "y": 0, "z": 0, "face": "dots-1"},
            {"id": 12, "x": 0, "y": 0, "z": 1, "face": "dots-2"},
            {"id": 5, "x": 4, "y": 0, "z": 0, "face": "dots-1"},
            {"id": 99, "x": 8, "y": 0, "z": 0, "face": "dots-2"},
        ]
    }
    path = tmp_path / "p.json"
    path.write_text(json.dumps(position))
    call_command("solve", str(path))
    answer = json.loads(capsys.readouterr().out)
    assert answer["solvable"] is True
    assert answer["solution"] == [[12, 99], [70, 5]]


def test_solve_proves_a_dead_position_false(tmp_path, capsys):
    position = {
        "tiles": [
            {"id": 1, "x": 0, "y": 0, "z": 0, "face": "dragon-red"},
            {"id": 2, "x": 0, "y": 0, "z": 1, "face": "dragon-red"},
        ]
    }
    path = tmp_path / "dead.json"
    path.write_text(json.dumps(position))
    call_command("solve", str(path))
    answer = json.loads(capsys.readouterr().out)
    assert answer["solvable"] is False and answer["solution"] is None


@in_a_child
def test_solve_stops_at_its_node_limit_with_null(capsys):
    case = (CASES / "turtle-random-seed149.json").read_text()
    result = manage("solve", "--max-nodes", "1", stdin=case)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["solvable"] is None


def test_layouts_lists_one_line_per_layout(capsys):
    call_command("layouts")
    lines = capsys.readouterr().out.splitlines()
    slugs = [line.split()[0] for line in lines]
    assert "turtle" in slugs and "small" in slugs
    turtle = next(line for line in lines if line.startswith("turtle "))
    assert "144 tiles" in turtle


def test_export_layout_round_trips(capsys):
    call_command("export_layout", "turtle")
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "mahjong-layout/1" and data["slug"] == "turtle"
    assert [tuple(p) for p in data["positions"]] == list(get_layout("turtle").positions)
    Board(get_layout("turtle"), ("dots-1",) * 144)


@in_a_child
@in_a_child
@pytest.mark.parametrize(
    "args, stdin, message",
    [
        (["solve"], "{not json", "not valid JSON"),
        (
            ["solve"],
            '{"tiles": [{"id": 1, "x": 0, "y": 0, "z": 0, "face": "joker"}]}',
            "unknown face 'joker'",
        ),
        (
            ["solve"],
            json.dumps(
                {
                    "tiles": [
                        {"id": 1, "x": 0, "y": 0, "z": 0, "face": "dots-1"},
                        {"id": 2, "x": 1, "y": 0, "z": 0, "face": "dots-1"},
                    ]
                }
            ),
            "tile 1 at (0, 0, 0) and tile 2 at (1, 0, 0) overlap",
        ),
        (["solve"], '{"tiles": 3}', "'tiles' must be a list"),
        (["deal", "hexagon", "--seed", "1"], "", "unknown layout 'hexagon'"),
        (["export_layout", "hexagon"], "", "unknown layout 'hexagon'"),
        (["solve", "/no/such/file.json"], "", "cannot read /no/such/file.json"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line_and_no_traceback(args, stdin, message):
    result = manage(*args, stdin=stdin)
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0]
    assert "Traceback" not in result.stderr
