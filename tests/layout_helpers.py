"""Shared set-up for the layout and dailies tests."""

import pytest

from config.celery import app


@pytest.fixture
def eager_celery():
    """Run tasks in the caller even when REDIS_URL points at a broker."""
    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = old
