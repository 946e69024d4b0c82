"""What a username may be: 3–20 letters, digits, '_' or '.', and not reserved."""

import re

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MinLengthValidator, RegexValidator
from django.utils.translation import gettext_lazy as _

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


def validate_not_reserved(value: str) -> None:
    lowered = value.lower()
    if lowered in RESERVED_USERNAMES or _BOT_LIKE.match(lowered):
        raise ValidationError(
            _("This username is reserved. Please choose another."), code="reserved"
        )


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
]
