from datetime import datetime
from typing import Any

from allauth.account.forms import SignupForm as AllauthSignupForm
from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Report
from accounts.validators import USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, username_help


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form with the username limits visible to the browser."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.max_length = None  # the validators give the message, in the user's language
        # The browser enforces the same limits the help text states (accounts.validators).
        username.widget.attrs.update(
            {
                "maxlength": str(USERNAME_MAX_LENGTH),
                "minlength": str(USERNAME_MIN_LENGTH),
                "autocomplete": "username",
            }
        )
        username.help_text = username_help()


class ReportForm(forms.Form):
    """A player's report about another player."""

    reason = forms.ChoiceField(label=_("Reason"), choices=Report.Reason.choices)
    text = forms.CharField(
        label=_("What happened?"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    match_id = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


class BanForm(forms.Form):
    """The admin's ban form: a required reason and an optional end."""

    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))
    until = forms.DateTimeField(
        label=_("Until"),
        required=False,
        help_text=_("Leave empty for a ban without an end."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("A ban needs a reason."))
        return reason

    def clean_until(self) -> datetime | None:
        until = self.cleaned_data.get("until")
        if until is not None and until <= timezone.now():
            raise forms.ValidationError(_("The end of a ban must be in the future."))
        return until


class ReasonForm(forms.Form):
    """A required free-text reason or note for a staff action."""

    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 3}))

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("This field is required."))
        return reason
