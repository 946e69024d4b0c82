"""The daily deal's refusals. They are games errors (`games.errors.GameError`), so
the table's own views show them too ("Next deal" at a daily table asks this app)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import GameError


class DailyError(GameError):
    code = "daily_error"
    default_message = _("That cannot be done with the daily deal now.")


class DealAlreadyPlayed(DailyError):
    code = "daily_deal_already_played"
    default_message = _(
        "You have already played that deal today: each deal is played once, and your "
        "first try is the one that counts."
    )


class DealNotYet(DailyError):
    code = "daily_deal_not_yet"
    default_message = _("The day's deals are played in order: play the next one first.")


class SetFinished(DailyError):
    code = "daily_set_finished"
    default_message = _(
        "You have played today's six deals. Your results are on the ranking; come back "
        "tomorrow for new deals."
    )


class EntryVoided(DailyError):
    code = "daily_entry_voided"
    default_message = _("Your daily result for today was voided by the staff.")


class DayNotOver(DailyError):
    code = "daily_day_not_over"
    default_message = _(
        "Today's deals cannot be played offline: play them here, once, for the ranking. "
        "From tomorrow you can replay them offline."
    )


class DealNotFinished(DailyError):
    code = "daily_deal_not_finished"
    default_message = _("Finish this deal first: its results and the best line show afterwards.")


class ReasonRequired(DailyError):
    code = "daily_reason_required"
    default_message = _("Give a reason for voiding this result.")


class NotAllowed(DailyError):
    code = "daily_not_allowed"
    default_message = _("You are not allowed to do that.")


class AlreadyVoided(DailyError):
    code = "daily_already_voided"
    default_message = _("This result was already voided.")
