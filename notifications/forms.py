from __future__ import annotations

from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.utils.translation import gettext_lazy as _

from notifications import kinds


class SettingsForm(forms.Form):
    kinds_on = forms.MultipleChoiceField(
        label=_("Notify me about"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=[],
    )
    quiet_start = forms.TimeField(
        label=_("Quiet hours from"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    quiet_end = forms.TimeField(
        label=_("Quiet hours until"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    timezone = forms.ChoiceField(label=_("Time zone"), choices=[])
    push_per_hour = forms.IntegerField(
        label=_("Pushes per hour at most"), min_value=0, max_value=60
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kinds_on"].choices = [(k.key, k.label) for k in kinds.KINDS.values()]
        self.fields["timezone"].choices = [(z, z) for z in sorted(available_timezones())]
