"""Two requests for one run at once (a double click, two tabs) are applied
one after the other: the pair is taken once, and both get a good answer."""

import threading

import pytest
from django.db import connection

from games.models import Run
from tests.run_helpers import Browser


@pytest.mark.django_db(transaction=True)
def test_the_same_take_sent_twice_at_once_is_taken_once():
    me = Browser()
    run = me.start().json()
    pair = Run.objects.get(public_id=run["id"]).witness[0]
    barrier = threading.Barrier(4)
    answers = []

    def click():
        barrier.wait()
        try:
            answers.append(me.take(run, *pair))
        finally:
            connection.close()

    threads = [threading.Thread(target=click) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in answers] == [200] * 4
    assert {str(r.json()["removed"]) for r in answers} == {str([pair])}
    assert Run.objects.get(public_id=run["id"]).moves == [pair]


@pytest.mark.django_db(transaction=True)
def test_two_tabs_starting_one_board_at_once_share_one_run():
    me = Browser()
    me.become_guest()
    barrier = threading.Barrier(3)
    answers = []

    def start():
        barrier.wait()
        try:
            answers.append(me.start())
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in answers) == [200, 200, 201]
    assert len({r.json()["id"] for r in answers}) == 1
