"""The tournament pages' forms: registering, alone or with a friend; a club's
tournament scheduled by its owner or admins."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs.validators import contains_link
from games.models import RuleSetName
from tournaments.models import Format
from tournaments.services.clubs import BOUNDS


class RegisterForm(forms.Form):
    # A friend's username; empty: alone (the tournament pairs singles by rating). The
    # page offers the friends in a list; the service decides (PartnerNotFriend...).
    partner = forms.CharField(label=_("Partner"), max_length=150, required=False)


class ClubTournamentForm(forms.Form):
    """A club's owner or admin schedules a tournament for the members (every field
    bounded as `services.clubs.BOUNDS`; the service checks them again)."""

    name = forms.CharField(
        label=_("Name"),
        min_length=BOUNDS.name_length[0],
        max_length=BOUNDS.name_length[1],
        strip=True,
    )
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial=Format.SWISS)
    rules = forms.ChoiceField(
        label=_("Rules"), choices=RuleSetName.choices, initial=RuleSetName.ONLINE
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss, duplicate)"),
        min_value=BOUNDS.rounds[0],
        max_value=BOUNDS.rounds[1],
        initial=5,
    )
    best_of = forms.TypedChoiceField(
        label=_("Each knockout tie: best of"),
        choices=[(1, "1"), (3, "3")],
        coerce=int,
        initial=1,
    )
    round_minutes = forms.IntegerField(
        label=_("Round length (minutes)"),
        min_value=BOUNDS.round_minutes[0],
        max_value=BOUNDS.round_minutes[1],
        initial=30,
    )
    pause_minutes = forms.IntegerField(
        label=_("Pause between rounds (minutes)"),
        min_value=BOUNDS.pause_minutes[0],
        max_value=BOUNDS.pause_minutes[1],
        initial=2,
    )
    entry_fee = forms.IntegerField(
        label=_("Entry fee (coins per player, 0: free)"),
        min_value=BOUNDS.entry_fee[0],
        max_value=BOUNDS.entry_fee[1],
        initial=0,
    )
    min_entries = forms.IntegerField(
        label=_("Minimum teams"),
        min_value=BOUNDS.entries[0],
        max_value=BOUNDS.entries[1],
        initial=4,
    )
    max_entries = forms.IntegerField(
        label=_("Maximum teams"),
        min_value=BOUNDS.entries[0],
        max_value=BOUNDS.entries[1],
        initial=32,
    )
    registration_close_minutes = forms.IntegerField(
        label=_("Registration closes (minutes before the start)"),
        min_value=BOUNDS.registration_close_minutes[0],
        max_value=BOUNDS.registration_close_minutes[1],
        initial=5,
    )

    def __init__(self, *args: Any, now: datetime | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.now = now or timezone.now()
        self.fields["starts_at"].help_text = _("Times are in the %(zone)s time zone.") % {
            "zone": timezone.get_current_timezone_name()
        }
        if not self.is_bound and "starts_at" not in self.initial:
            # Tomorrow at 20:00, local time: a sensible evening to offer.
            tomorrow = timezone.localtime(self.now).date() + timedelta(days=1)
            self.initial["starts_at"] = datetime.combine(
                tomorrow, time(20, 0), tzinfo=timezone.get_current_timezone()
            )

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if contains_link(name):
            raise forms.ValidationError(_("A tournament's name cannot hold a link."))
        if len(name) < BOUNDS.name_length[0]:
            raise forms.ValidationError(
                _("Give the tournament a name of at least %(count)d characters.")
                % {"count": BOUNDS.name_length[0]}
            )
        return name

    def clean_starts_at(self) -> datetime:
        starts_at: datetime = self.cleaned_data["starts_at"]
        earliest = self.now + BOUNDS.start_after
        if starts_at < earliest:
            minutes = int(BOUNDS.start_after.total_seconds() // 60)
            raise forms.ValidationError(
                ngettext(
                    "The tournament must start at least %(minutes)d minute from now.",
                    "The tournament must start at least %(minutes)d minutes from now.",
                    minutes,
                )
                % {"minutes": minutes}
            )
        if starts_at > self.now + BOUNDS.start_within:
            days = BOUNDS.start_within.days
            raise forms.ValidationError(
                ngettext(
                    "The tournament must start within %(days)d day.",
                    "The tournament must start within %(days)d days.",
                    days,
                )
                % {"days": days}
            )
        return starts_at

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        low, high = data.get("min_entries"), data.get("max_entries")
        if low is not None and high is not None and low > high:
            self.add_error(
                "max_entries", _("The maximum must be at least the minimum number of teams.")
            )
        starts_at, close = data.get("starts_at"), data.get("registration_close_minutes")
        if (
            starts_at is not None
            and close is not None
            and starts_at - timedelta(minutes=close) <= self.now
        ):
            self.add_error(
                "registration_close_minutes",
                _("Registration would close before it opens: start later or close later."),
            )
        return data
