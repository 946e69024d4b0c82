"""The regions the daily deal adds to the games app's pages (`games.hooks`,
registered from `DailyConfig.ready`): games names no page of daily's."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from daily import services
from games.hooks import PageSection


def lobby_section(*, user: Any) -> PageSection:
    """The lobby's link to the day's deals."""
    return PageSection(template="daily/lobby_section.html")


def offline_section(*, user: Any) -> PageSection:
    """Offline practice's replay of a past day's deals, unranked: the form that fetches
    a day's deals (`offline_deals`), and the texts static/js/offline.js shows while they
    are replayed. Drawn for a visitor: the service worker keeps a copy of the page."""
    return PageSection(
        template="daily/offline_section.html",
        context={
            # The JavaScript puts the chosen day in place of this one.
            "deals_url": reverse("daily:offline_deals", args=["2000-01-01"]),
            # The last day whose deals may be replayed (today's are played online).
            "yesterday": services.day_of(timezone.now()) - timedelta(days=1),
        },
        strings={
            "daily": {
                "mark": _("Daily deal of {date} · deal {n} of {of} · not ranked"),
                "next": _("Next deal ({n} of {of})"),
                "again": _("Play this deal again"),
                "back": _("Back"),
                "network": _("The deals could not be fetched: a connection is needed for that."),
                "bad_date": _("Choose a past day."),
            },
        },
    )
