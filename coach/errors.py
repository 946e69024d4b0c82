"""The coach's domain errors. Interfaces turn them into a message (HTTP 4xx) or an
htmx fragment; a refused request writes nothing.

The shape every app's errors share (ops.domain): a stable `code`,
JSON-ready `params`, and a `message` in the active language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from ops.domain import DomainError


class CoachError(DomainError):
    code = "coach_error"
    default_message: Any = _("The coach cannot do that now.")
    #: The HTTP status an interface answers with.
    status = 400


class MatchNotFound(CoachError):
    code = "match_not_found"
    default_message = _("There is no such finished match.")
    status = 404


class NotYourMatch(CoachError):
    code = "not_your_match"
    default_message = _("Only the players of a match (and staff) may have it analysed.")
    status = 403


class NotAnalysable(CoachError):
    code = "not_analysable"
    default_message = _("A practised position is not analysed: only matches are.")


class DailyLimitReached(CoachError):
    code = "daily_limit_reached"
    default_message = _(
        "You have used today's analyses. A VIP pass makes them unlimited; "
        "otherwise come back tomorrow."
    )
    status = 429


class DecisionNotFound(CoachError):
    code = "decision_not_found"
    default_message = _("There is no such decision to practise.")
    status = 404


class NotYourDecision(CoachError):
    code = "not_your_decision"
    default_message = _("You can only practise positions from your own seat.")
    status = 403


class PracticeNotFound(CoachError):
    code = "practice_not_found"
    default_message = _("There is no such practice.")
    status = 404
