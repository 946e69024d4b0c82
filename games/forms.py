from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, RuleSetName


class PracticeForm(forms.Form):
    rules = forms.ChoiceField(label=_("Rules"), choices=RuleSetName.choices)
    bot_level = forms.ChoiceField(label=_("Bot level"), choices=BotLevel.choices)


class RoomForm(forms.Form):
    rules = forms.ChoiceField(label=_("Rules"), choices=RuleSetName.choices)


class InviteForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)


class RoomSettingsForm(forms.Form):
    rules = forms.ChoiceField(label=_("Rules"), choices=RuleSetName.choices)
    bot_level = forms.ChoiceField(label=_("Bot level"), choices=BotLevel.choices)
