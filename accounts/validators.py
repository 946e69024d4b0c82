"""What a username may be: 3–20 characters of one script — letters with their
combining marks (accents, Thai vowel signs and tone marks), digits, '_' or '.' —
neither reserved nor a look-alike of a reserved name (accounts/lookalikes.py)."""

import re
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MinLengthValidator
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
    return gettext(
        "%(min)s to %(max)s characters, all of one alphabet: letters (an accent or a "
        "vowel or tone mark counts as one character), digits, '_' or '.'."
    ) % {"min": USERNAME_MIN_LENGTH, "max": USERNAME_MAX_LENGTH}


username_help_lazy = lazy(username_help, str)

# Combining marks one letter may carry: Thai stacks at most a vowel sign and a tone
# mark (or the thanthakhat); more is decoration ("Zalgo" text), not a name.
MAX_MARKS_PER_LETTER = 3
_LETTER, _MARK, _OTHER = "letter", "mark", "other"


def _kind(character: str) -> str | None:
    category = unicodedata.category(character)
    if category[0] == "L":
        return _LETTER
    if category in ("Mn", "Mc"):  # combining marks (not the enclosing ones, Me)
        return _MARK
    if category == "Nd" or character in "_.":
        return _OTHER
    return None


def validate_username_characters(value: str) -> None:
    """Letters, each with at most three combining marks, digits, '_' and '.'.

    The mixed-script rule (validate_single_script) keeps a mark to its letter's
    script: a Thai tone mark on a Latin letter makes a mixed name."""
    marks = 0
    previous = None
    for character in value:
        kind = _kind(character)
        if kind is None:
            raise ValidationError(
                _("Use only letters (with their accents or marks), digits, '_' and '.'."),
                code="invalid_characters",
            )
        if kind == _MARK:
            marks += 1
            if previous not in (_LETTER, _MARK) or marks > MAX_MARKS_PER_LETTER:
                raise ValidationError(
                    _(
                        "An accent or a vowel or tone mark must follow a letter, "
                        "at most three on one letter."
                    ),
                    code="misplaced_mark",
                )
        else:
            marks = 0
        previous = kind


USERNAME_VALIDATORS: list[Callable[[Any], None]] = [
    validate_username_characters,
    MinLengthValidator(USERNAME_MIN_LENGTH),
    MaxLengthValidator(USERNAME_MAX_LENGTH),
    validate_not_reserved,
    validate_single_script,
]
