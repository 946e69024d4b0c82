"""The stake tables' forms: what a player chooses when they open a table or sit."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import StrictCheckbox


class WatchersForm(forms.Form):
    """Sitting at a stake table (opening one too): whether others may watch it
    (docs/watching.md; ticked by default, so an unticked box forbids watchers)."""

    allow_watchers = StrictCheckbox(label=_("Let others watch this table"), initial=True)


class PartnerInviteForm(forms.Form):
    """Queueing with a partner: the standing partner's username (the lobby's choice)."""

    username = forms.CharField(label=_("Partner"), max_length=150)
