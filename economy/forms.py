from django import forms
from django.utils.translation import gettext_lazy as _


class PurchaseForm(forms.Form):
    """The confirmation step: its key is made when the form is shown, so a double click
    (or a resubmitted page) posts the same key and buys once."""

    key = forms.UUIDField(widget=forms.HiddenInput)


class AdjustmentForm(forms.Form):
    amount = forms.IntegerField(
        label=_("Amount"),
        help_text=_("Positive to credit the user, negative to debit."),
        min_value=-10_000_000,
        max_value=10_000_000,
    )
    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.Textarea)
    key = forms.UUIDField(widget=forms.HiddenInput)

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("The amount must be a whole number other than zero."))
        return amount

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("A reason is required."))
        return reason
