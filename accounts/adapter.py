import logging
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from accounts.lookalikes import normalize_username, username_key
from accounts.models import User
from accounts.selectors import ban_in_force
from accounts.services import username_key_lock
from accounts.views import banned_response

security_log = logging.getLogger("cuatrola.security")


class AccountAdapter(DefaultAccountAdapter):
    """The house rules allauth consults."""

    def format_email_subject(self, subject: str) -> str:
        return _("[Cuatrola Online] %(subject)s") % {"subject": subject}

    def pre_login(self, request: HttpRequest, user: User, **kwargs: Any) -> HttpResponse | None:
        # Every allauth login path (form, after a password reset, after sign-up) passes here.
        ban = ban_in_force(user.pk)
        if ban is not None:
            from allauth.account.internal.stagekit import clear_login

            clear_login(request)
            return banned_response(request, ban)
        return super().pre_login(request, user, **kwargs)

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        # allauth refuses an account or address with too many failed attempts here
        # (the admin's log-in comes through the same form): staff see each lock-out.
        try:
            super().pre_authenticate(request, **credentials)
        except ValidationError:
            security_log.warning(
                "log-in locked out: too many failed attempts for %r from %s",
                credentials.get("username") or credentials.get("email") or "",
                self.get_client_ip(request),
            )
            raise

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Stored NFKC ("ｐｅｐｅ" is "pepe"); refused when it looks like another
        # player's name, in any letter case or with look-alike letters.
        username = super().clean_username(normalize_username(username), shallow=shallow)
        if shallow:
            return username
        key = username_key(username)
        # Held until the sign-up's transaction ends (cuatrola_site/urls.py): a look-alike
        # signing up at the same instant waits, then sees this one.
        username_key_lock(key=key)
        if User.objects.filter(username_key=key).exists():
            raise ValidationError(
                _("This username looks too much like another player's. Please choose another.")
            )
        return username
