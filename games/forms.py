from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, RuleSetName


class StrictCheckboxInput(forms.CheckboxInput):
    """A checkbox whose posted value reaches the field as written (Django's own turns
    any text into True), so the field can refuse what no browser sends."""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        return data.get(name, "")


class StrictCheckbox(forms.BooleanField):
    """A checkbox that is either ticked (`1`, `on`, `true`) or not (absent, empty,
    `0`, `false`); any other value is a form error, not a guess."""

    TICKED = frozenset({"1", "on", "true"})
    UNTICKED = frozenset({"", "0", "off", "false"})
    default_error_messages = {"invalid": _("Tick the box or leave it empty.")}

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", StrictCheckboxInput)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> bool:
        if isinstance(value, bool):
            return value
        text = value.strip().lower() if isinstance(value, str) else None
        if text in self.TICKED:
            return True
        if text in self.UNTICKED:
            return False
        raise forms.ValidationError(self.error_messages["invalid"], code="invalid")


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
    open_to_watch = StrictCheckbox(
        label=_("Open to watch"),
        help_text=_("Anyone signed in may watch the match (never your hands)."),
    )
