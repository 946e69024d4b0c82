from django import forms
from django.utils.translation import gettext_lazy as _


class ResetForm(forms.Form):
    """Staff's rating reset: the reason is checked by the service (ResetNeedsReason),
    whose message the form shows."""

    reason = forms.CharField(
        label=_("Reason"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Required. Stored with the reset and in the player's admin history."),
    )
