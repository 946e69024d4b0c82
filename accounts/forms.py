from allauth.account.forms import SignupForm as AllauthSignupForm
from django.utils.translation import gettext_lazy as _

from accounts.validators import USERNAME_MAX_LENGTH


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form with the username limits visible to the browser."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.max_length = None  # the validators say why; the browser must not truncate silently
        username.widget.attrs.update(
            {"maxlength": str(USERNAME_MAX_LENGTH + 10), "autocomplete": "username"}
        )
        username.help_text = _("3 to 20 letters, digits, '_' or '.'.")
