"""Tournaments in the admin: staff define one-off and recurring tournaments; the
action "cancel, refunding every fee" calls the service. Entries, rounds and results
are read-only here (the services write them)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tournaments import errors, services
from tournaments.models import (
    Entry,
    Pairing,
    Round,
    Tournament,
    TournamentSchedule,
    TournamentState,
)

#: What staff may set; the rest (state, rounds played, results) belongs to the services.
TEMPLATE_FIELDS = (
    "name",
    "format",
    "rules",
    "bot_level",
    "rounds",
    "best_of",
    "round_minutes",
    "pause_minutes",
    "entry_fee",
    "xp_pool",
    "min_entries",
    "max_entries",
    "prize_shares",
)


def _shares_clean(value: Any) -> list[int]:
    if (
        not isinstance(value, list)
        or not value
        or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in value)
        or sum(value) <= 0
    ):
        raise forms.ValidationError(
            gettext("Give the prize shares as a list of whole numbers, e.g. [500, 300, 200].")
        )
    return value


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = (
            *TEMPLATE_FIELDS,
            "registration_opens_at",
            "registration_closes_at",
            "starts_at",
        )

    def clean_prize_shares(self) -> list[int]:
        return _shares_clean(self.cleaned_data.get("prize_shares"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        opens, closes, starts = (
            data.get("registration_opens_at"),
            data.get("registration_closes_at"),
            data.get("starts_at"),
        )
        if opens and closes and starts and not (opens <= closes <= starts):
            raise forms.ValidationError(errors.BadSchedule.default_message)
        low, high = data.get("min_entries"), data.get("max_entries")
        if low is not None and high is not None and low > high:
            raise forms.ValidationError(gettext("The minimum of entries is above the maximum."))
        return data


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    can_delete = False
    fields = ("player_a", "player_b", "single", "state", "fee", "rating", "rank", "prize_coins")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    can_delete = False
    fields = ("number", "state", "started_at", "finished_at", "next_starts_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "format", "state", "starts_at", "entry_fee", "current_round")
    list_filter = ("state", "format")
    search_fields = ("name",)
    date_hierarchy = "starts_at"
    inlines = (EntryInline, RoundInline)
    actions = ("cancel_with_refunds",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        """Once registration opened, only the name may change (players entered on
        these terms)."""
        if obj is not None and obj.state != TournamentState.SCHEDULED:
            return tuple(f for f in TournamentForm.Meta.fields if f != "name")
        return ()

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if change:
            obj.save()
            return
        fields = {name: getattr(obj, name) for name in TournamentForm.Meta.fields}
        created = services.tournament_create(**fields)
        obj.pk = created.pk
        obj._state.adding = False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # cancel instead: the fees go back

    @admin.action(description=_("Cancel, refunding every entry fee"))
    def cancel_with_refunds(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        done = 0
        for tournament in queryset.order_by("pk"):
            try:
                services.tournament_cancel(tournament_id=tournament.pk, reason="staff")
                done += 1
            except errors.TournamentError as error:
                self.message_user(request, f"{tournament}: {error.message}", messages.WARNING)
        if done:
            self.message_user(
                request,
                ngettext(
                    "%(n)d tournament cancelled, its fees refunded.",
                    "%(n)d tournaments cancelled, their fees refunded.",
                    done,
                )
                % {"n": done},
            )


class ScheduleForm(forms.ModelForm):
    class Meta:
        model = TournamentSchedule
        fields = (
            *TEMPLATE_FIELDS,
            "weekday",
            "local_time",
            "timezone",
            "registration_open_hours",
            "registration_close_minutes",
            "active",
        )

    def clean_prize_shares(self) -> list[int]:
        return _shares_clean(self.cleaned_data.get("prize_shares"))

    def clean_timezone(self) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        name = (self.cleaned_data.get("timezone") or "").strip()
        try:
            ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            raise forms.ValidationError(gettext("There is no such time zone.")) from None
        return name


@admin.register(TournamentSchedule)
class TournamentScheduleAdmin(admin.ModelAdmin):
    form = ScheduleForm
    list_display = ("name", "format", "weekday", "local_time", "timezone", "entry_fee", "active")
    list_filter = ("active", "format", "weekday")


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):
    list_display = ("tournament", "round", "number", "entry_a", "entry_b", "state", "winner")
    list_filter = ("state",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
