"""Events of the apps below (accounts) that notify: connected in ready()."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from notifications import kinds


def report_handled(sender: Any, report: Any, **kwargs: Any) -> None:
    """Inside the report's closing transaction: the reporter learns it was handled."""
    from notifications.services import notification_send

    notification_send(
        user=report.reporter_id,
        kind=kinds.REPORT_HANDLED,
        params={"name": report.reported.username},
        link=reverse("notifications:list"),
        dedup_key=f"report:{report.pk}",
    )


def connect() -> None:
    from accounts.signals import report_closed

    report_closed.connect(report_handled, dispatch_uid="notifications.report_handled")
