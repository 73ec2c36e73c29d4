"""Celery tasks of the rollover: thin wrappers around the idempotent ``daily.services.rollover``."""

from __future__ import annotations

import datetime
import logging

from celery import shared_task
from django.db import DatabaseError
from django.utils import timezone

from daily.services.rollover import reconcile
from farkle_site.domain import Invalid

logger = logging.getLogger(__name__)


@shared_task(
    name="daily.reconcile",
    # Safe to run again: a task lost with its worker is redelivered rather than dropped.
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=5,
    retry_backoff_max=300,
    max_retries=8,
)
def reconcile_task(at: str | None = None) -> dict:
    """Publish tomorrow's daily, close every due puzzle; ``at`` (ISO 8601) replaces the clock,
    now or earlier: a later instant is refused (logged as an error, the task failed, not
    retried)."""
    now = datetime.datetime.fromisoformat(at) if at else timezone.now()
    if timezone.is_naive(now):
        raise ValueError(f"at={at!r} has no time zone; add Z for UTC.")
    try:
        report = reconcile(now=now)
    except Invalid as refusal:
        # A plain ValueError, as for an instant without a time zone: what a caller of the task
        # reads back from the result backend.
        logger.error("Rollover refused: %s", refusal.message)
        raise ValueError(refusal.message) from None
    logger.info("Rollover at %s: %s", now.isoformat(), str(report).replace("\n", "; "))
    return report.as_dict()
