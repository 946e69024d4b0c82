"""The tournament pages' one form: registering, alone or with a friend."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class RegisterForm(forms.Form):
    # A friend's username; empty: alone (the tournament pairs singles by rating). The
    # page offers the friends in a list; the service decides (PartnerNotFriend...).
    partner = forms.CharField(label=_("Partner"), max_length=150, required=False)
