"""The accounts app's periodic work (the beat schedule: cuatrola_site/settings.py)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="accounts.prune_sign_ins", ignore_result=True)
def prune_sign_ins() -> int:
    """The sign-in records past SIGN_IN_KEEP_DAYS deleted (each night)."""
    from accounts.services import sign_ins_prune

    return sign_ins_prune()
