"""Certificates that a position cannot be cleared: found only when true
(brute force agrees), checked by the spec's geometry alone, and refused
when tampered with."""

import json

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.certificate import (
    CertificateError,
    check_certificate,
    find_certificate,
)
from games.engine.formats import Position, position_to_json
from games.engine.solver import solve
from tests.engine_helpers import board_of
from tests.test_solver import clearing_by_brute_force, late_random_position

# The last two 1 of Dots lie one on the other; a pair of 2 of Dots beside.
STACKED = board_of(
    (0, 0, 0, "dots-1"),
    (0, 0, 1, "dots-1"),
    (4, 0, 0, "dots-2"),
    (6, 0, 0, "dots-2"),
)
# Four 1 of Dots in one column: every pairing puts one tile on its partner.
COLUMN = board_of(*((0, 0, z, "dots-1") for z in range(4)))


def tiles_of(board) -> list[dict]:
    return position_to_json(Position(board, tuple(range(len(board.faces)))))["tiles"]


@pytest.mark.parametrize("board", [STACKED, COLUMN])
def test_a_pile_lost_by_its_stacking_gets_a_certificate_that_checks(board):
    assert solve(board).solvable is False
    cert = find_certificate(board)
    assert cert["rule"] == "no-pairing"
    assert "under the other" in check_certificate(tiles_of(board), cert)


def test_the_stacked_pair_names_its_chain():
    cert = find_certificate(STACKED)
    assert cert["group"] == [0, 1]
    assert cert["blocked"] == [{"pair": [0, 1], "chain": [1, 0]}]


def test_an_odd_group_can_never_be_paired():
    board = board_of(*((2 * i, 0, 0, "dots-1") for i in range(3)), (6, 0, 0, "dots-2"))
    cert = find_certificate(board)
    assert cert["rule"] == "odd-group"
    assert "never all be paired" in check_certificate(tiles_of(board), cert)


@pytest.mark.parametrize(
    "tamper, message",
    [
        (lambda c: c["blocked"][0].update(chain=[0, 1]), "does not cover"),
        (lambda c: c.update(group=[0]), "every standing tile matching"),
        (lambda c: c.update(blocked=[]), "nothing shows the pairing"),
        (lambda c: c.update(rule="hunch"), "unknown rule"),
        (lambda c: c.update(format="x"), "not a certificate"),
    ],
)
def test_a_tampered_certificate_is_refused(tamper, message):
    cert = find_certificate(STACKED)
    tamper(cert)
    with pytest.raises(CertificateError, match=message):
        check_certificate(tiles_of(STACKED), cert)


def test_a_clearable_pile_gets_no_certificate():
    board = board_of(*((2 * i, 0, 0, "dots-1") for i in range(4)))
    assert find_certificate(board) is None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    slug=st.sampled_from(["small", "turtle"]),
    seed=st.integers(0, 10**6),
    left=st.integers(2, 9),
)
def test_a_certificate_is_only_ever_found_for_a_lost_pile(slug, seed, left):
    board = late_random_position(slug, seed, left)
    cert = find_certificate(board)
    if cert is None:
        return
    assert clearing_by_brute_force(board.copy(), set()) is None
    tiles = [
        {"id": i, "x": x, "y": y, "z": z, "face": board.faces[i]}
        for i, (x, y, z) in enumerate(board.layout.positions)
        if board.is_standing(i)
    ]
    check_certificate(tiles, cert)


def test_solve_prints_the_certificate_and_verify_checks_it(tmp_path, capsys):
    path = tmp_path / "lost.json"
    path.write_text(json.dumps({"tiles": tiles_of(STACKED)}))
    call_command("solve", str(path))
    answer = json.loads(capsys.readouterr().out)
    assert answer["solvable"] is False and answer["certificate"]["rule"] == "no-pairing"
    path.write_text(
        json.dumps({"tiles": tiles_of(STACKED), "certificate": answer["certificate"]})
    )
    call_command("verify", str(path))
    assert "cannot be cleared" in capsys.readouterr().out
    answer["certificate"]["blocked"][0]["chain"] = [0, 1]
    path.write_text(
        json.dumps({"tiles": tiles_of(STACKED), "certificate": answer["certificate"]})
    )
    with pytest.raises(CommandError, match="does not hold"):
        call_command("verify", str(path))
