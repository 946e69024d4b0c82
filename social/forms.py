from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from social.models import PartnerMarkKind, Requests


class PlayerForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)


class PrivacyForm(forms.Form):
    requests_from = forms.ChoiceField(
        label=_("Who may send you friend requests"), choices=Requests.choices
    )
    show_table = forms.BooleanField(label=_("Friends see where you are playing"), required=False)
    talk_hidden = forms.BooleanField(label=_("Hide all table talk"), required=False)


class PartnerMarkForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    kind = forms.ChoiceField(label=_("Mark"), choices=PartnerMarkKind.choices)
