"""The history page's filters: what the browser sent, checked into HistoryFilters."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from accounts.selectors import active_users_named
from games.models import Mode, RuleSetName
from games.modes import modes_in_history
from history.models import Outcome
from history.selectors import HistoryFilters

# Far enough apart for any match, near enough that a day's bounds never overflow.
DATE_RANGE = [MinValueValidator(date(2000, 1, 1)), MaxValueValidator(date(2999, 12, 31))]


def _mode_choices() -> list[tuple[str, Any]]:
    """The modes the history records (a practised position is not a match of yours)."""
    recorded = set(modes_in_history())
    return [("", _("All modes")), *((v, label) for v, label in Mode.choices if v in recorded)]


class HistoryFilterForm(forms.Form):
    mode = forms.ChoiceField(label=_("Mode"), required=False, choices=_mode_choices)
    rules = forms.ChoiceField(
        label=_("Rule set"),
        required=False,
        choices=[("", _("All rule sets")), *RuleSetName.choices],
    )
    result = forms.ChoiceField(
        label=_("Result"), required=False, choices=[("", _("All results")), *Outcome.choices]
    )
    player = forms.CharField(
        label=_("With player"),
        required=False,
        max_length=150,
        help_text=_("A username: matches where they were your partner or an opponent."),
    )
    role = forms.ChoiceField(
        label=_("As"),
        required=False,
        choices=[
            ("", _("Partner or opponent")),
            ("partner", _("Partner")),
            ("opponent", _("Opponent")),
        ],
    )
    since = forms.DateField(
        label=_("From"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        validators=DATE_RANGE,
    )
    until = forms.DateField(
        label=_("To"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        validators=DATE_RANGE,
    )

    def clean_player(self) -> int | None:
        name = self.cleaned_data["player"].strip()
        if not name:
            return None
        found = active_users_named(name).values_list("pk", flat=True).first()
        if found is None:
            raise forms.ValidationError(
                _("There is no player called %(name)s."), params={"name": name}
            )
        return found

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", _("The end date is before the start date."))
        return data

    def filters(self) -> HistoryFilters:
        """The valid filters (call after is_valid())."""
        data = self.cleaned_data
        return HistoryFilters(
            mode=data.get("mode") or "",
            rules=data.get("rules") or "",
            result=data.get("result") or "",
            with_user=data.get("player"),
            role=data.get("role") or "",
            since=data.get("since"),
            until=data.get("until"),
        )
