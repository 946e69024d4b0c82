"""What a username may be: 3–20 letters, digits, '_' or '.', in one script, and
neither reserved nor a look-alike of a reserved name (accounts/lookalikes.py)."""

import re
from functools import cache

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MinLengthValidator, RegexValidator
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.lookalikes import is_single_script, normalize_username, username_key

USERNAME_MIN_LENGTH = 3
USERNAME_MAX_LENGTH = 20

# Names that would let someone pass for the house, a bot or nobody.
RESERVED_USERNAMES = frozenset(
    {
        "admin",
        "administrator",
        "administrador",
        "anonymous",
        "anonimo",
        "bot",
        "bots",
        "cuatrola",
        "help",
        "ayuda",
        "mod",
        "moderator",
        "moderador",
        "none",
        "null",
        "root",
        "staff",
        "support",
        "soporte",
        "system",
        "sistema",
        "webmaster",
    }
)
_BOT_LIKE = re.compile(r"^bot[._\d]", re.IGNORECASE)


@cache
def _reserved_keys() -> frozenset[str]:
    return frozenset(username_key(name) for name in RESERVED_USERNAMES)


_BOT_KEY = username_key("bot")


def is_reserved(value: str) -> bool:
    """A reserved name, or one a reader could take for it ("аdmin", "ＢＯＴ_1", "rnod")."""
    lowered = normalize_username(value).lower()
    key = username_key(value)
    return (
        lowered in RESERVED_USERNAMES
        or key in _reserved_keys()
        or bool(_BOT_LIKE.match(lowered))
        or (key.startswith(_BOT_KEY) and bool(_BOT_LIKE.match("bot" + key[len(_BOT_KEY) :])))
    )


def validate_not_reserved(value: str) -> None:
    if is_reserved(value):
        raise ValidationError(
            _("This username is reserved. Please choose another."), code="reserved"
        )


def validate_single_script(value: str) -> None:
    if not is_single_script(value):
        raise ValidationError(
            _("Write your username in a single alphabet (digits, '_' and '.' go with any)."),
            code="mixed_scripts",
        )


def username_help() -> str:
    """The rule as the sign-up form and the admin show it, from the limits enforced."""
    return gettext("%(min)s to %(max)s letters, digits, '_' or '.'.") % {
        "min": USERNAME_MIN_LENGTH,
        "max": USERNAME_MAX_LENGTH,
    }


username_help_lazy = lazy(username_help, str)

username_characters = RegexValidator(
    r"^[\w.]+\Z",
    _("Use only letters, digits, '_' and '.'."),
    code="invalid_characters",
)

USERNAME_VALIDATORS = [
    username_characters,
    MinLengthValidator(USERNAME_MIN_LENGTH),
    MaxLengthValidator(USERNAME_MAX_LENGTH),
    validate_not_reserved,
    validate_single_script,
]
