"""The league's domain errors. `message` is safe to show; none of them half-writes."""

from django.utils.translation import gettext_lazy as _


class LeagueError(Exception):
    default_message = _("The league operation could not be completed.")

    def __init__(self, message: str | None = None) -> None:
        self.message = message or str(self.default_message)
        super().__init__(self.message)


class BotsDoNotScore(LeagueError):
    default_message = _("League points belong to a registered player; bots never score.")


class InvalidLeaguePoints(LeagueError):
    default_message = _("League points must be a whole number greater than zero.")


class InvalidMatch(LeagueError):
    default_message = _("The match id must be a positive whole number.")


class NaiveFinishTime(LeagueError):
    default_message = _("The finish time must be timezone-aware.")


class WeekNotOver(LeagueError):
    default_message = _("This league week has not ended yet.")


class EarlierWeekOpen(LeagueError):
    default_message = _("An earlier league week is still open; weeks close in order.")
