from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from clubs.models import (
    ANNOUNCEMENT_MAX_LENGTH,
    DESCRIPTION_MAX_LENGTH,
    NAME_MAX_LENGTH,
    Admission,
    Role,
)
from games.models import RuleSetName


class ClubForm(forms.Form):
    """Creating a club. The rules themselves are the service's (clubs.validators):
    the form only checks the shape."""

    name = forms.CharField(label=_("Name"), max_length=NAME_MAX_LENGTH)
    description = forms.CharField(
        label=_("Description"),
        max_length=DESCRIPTION_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    admission = forms.ChoiceField(
        label=_("Who may join"), choices=Admission.choices, widget=forms.RadioSelect
    )


class ClubSettingsForm(forms.Form):
    description = forms.CharField(
        label=_("Description"),
        max_length=DESCRIPTION_MAX_LENGTH,
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    admission = forms.ChoiceField(
        label=_("Who may join"), choices=Admission.choices, widget=forms.RadioSelect
    )


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=_("Announcement"),
        max_length=ANNOUNCEMENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class MemberForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)


class RoleForm(MemberForm):
    role = forms.ChoiceField(
        label=_("Role"), choices=[(Role.ADMIN, Role.ADMIN.label), (Role.MEMBER, Role.MEMBER.label)]
    )


class TableForm(forms.Form):
    rules = forms.ChoiceField(label=_("Rules"), choices=RuleSetName.choices)


class SearchForm(forms.Form):
    q = forms.CharField(label=_("Club name"), max_length=NAME_MAX_LENGTH, required=False)
    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("Any language")), *settings.LANGUAGES],
        required=False,
    )
