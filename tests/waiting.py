"""Waiting for a condition rather than for a fixed time.

A fixed sleep is too short on a busy machine and too long on an idle one;
these poll the condition often and fail naming what never happened.
"""

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable

import pytest

EVERY_S = 0.02


def wait_until(check: Callable[[], object], what: str, within: float = 10.0) -> None:
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {within} s")
        time.sleep(EVERY_S)


async def until(
    check: Callable[[], object | Awaitable[object]], what: str, within: float = 10.0
) -> None:
    """`check` may be a plain or an async function."""
    deadline = time.monotonic() + within
    while True:
        result = check()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {within} s")
        await asyncio.sleep(EVERY_S)
