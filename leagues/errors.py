"""The league's domain errors. `message` is safe to show; none of them half-writes.

Every app's errors have one shape (ops.domain): a stable `code`,
JSON-ready `params`, and a `message` safe to show to the user.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _

from ops.domain import DomainError


class LeagueError(DomainError):
    code = "league_error"
    default_message: Any = _("The league operation could not be completed.")


class BotsDoNotScore(LeagueError):
    code = "bots_do_not_score"
    default_message = _("League points belong to a registered player; bots never score.")


class InvalidLeaguePoints(LeagueError):
    code = "invalid_league_points"
    default_message = _("League points must be a whole number greater than zero.")


class InvalidMatch(LeagueError):
    code = "invalid_match"
    default_message = _("The match id must be a positive whole number.")


class NaiveFinishTime(LeagueError):
    code = "naive_finish_time"
    default_message = _("The finish time must be timezone-aware.")


class WeekNotOver(LeagueError):
    code = "week_not_over"
    default_message = _("This league week has not ended yet.")


class EarlierWeekOpen(LeagueError):
    code = "earlier_week_open"
    default_message = _("An earlier league week is still open; weeks close in order.")
