"""Celery tasks of the games app."""

from celery import shared_task
from django.db import OperationalError

from games.layout_actions import record_proof


@shared_task(
    bind=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5
)
def prove_layout(self, pk: int) -> str:
    """Prove a layout clearable and store the witness; safe to run twice."""
    return record_proof(pk).status
