"""What a club's name, description and announcements may be (docs/clubs.md,
"Names").

A name follows the site's username rules (accounts.validators), word by word: each
word of letters (with their marks), digits, '_' or '.', the words parted by single
spaces or hyphens; the whole name in one script, no word reserved or looking like a
reserved name, 3–40 characters. Its `club_name_key` is the username look-alike key
(accounts.lookalikes) of the name without its spaces and hyphens: "Los Ases",
"los-ases" and "Lоs Аses" (Cyrillic) share one, and two open clubs never do (a
database constraint).

No name, description or announcement may hold a link (`contains_link`).
"""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from accounts.lookalikes import is_single_script, normalize_username, username_key
from accounts.validators import is_reserved, validate_username_characters
from clubs.models import (
    ANNOUNCEMENT_MAX_LENGTH,
    DESCRIPTION_MAX_LENGTH,
    NAME_MAX_LENGTH,
    NAME_MIN_LENGTH,
)

_SEPARATORS = re.compile(r"[\s\-]+")
_SPACES = re.compile(r"\s+")
#: Common top-level domains: "name.tld" with one of these reads as an address.
_TLDS = (
    "com|net|org|info|biz|io|gg|me|app|xyz|link|ly|tv|co|site|online|club|shop|live|"
    "dev|es|fr|it|kr|th|uk|de|us|eu|mx|ar|cl|pe|ru|cn|jp|be|ch|pt|br|to|cc|ws|ai|vip|bet|win|top"
)
_LINK = re.compile(
    rf"(?i)(?:[a-z][a-z0-9+.\-]*://|\bwww\s*\.|\b[\w\-]+\s*\.\s*(?:{_TLDS})\b|@[\w\-]+\.[a-z]{{2,}})"
)


def _visible(text: str) -> str:
    """NFKC, without invisible format characters (a zero-width space hides nothing)."""
    text = unicodedata.normalize("NFKC", text)
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def contains_link(text: str) -> bool:
    """Whether the text holds something that reads as a web address or an email:
    a scheme ("https://"), "www.", a word followed by a common top-level domain
    ("cartas.es", "discord . gg"), in any width or with invisible characters."""
    return _LINK.search(_visible(text)) is not None


def clean_club_name(value: str) -> str:
    """The name as stored (NFKC, spaces folded), or ValidationError saying which rule."""
    name = _SPACES.sub(" ", normalize_username(_visible(value or ""))).strip()
    if len(name) < NAME_MIN_LENGTH or len(name) > NAME_MAX_LENGTH:
        raise ValidationError(
            _("A club's name has %(min)d to %(max)d characters."),
            code="length",
            params={"min": NAME_MIN_LENGTH, "max": NAME_MAX_LENGTH},
        )
    if contains_link(name):
        raise ValidationError(_("A club's name may not hold a link."), code="link")
    words = [word for word in _SEPARATORS.split(name) if word]
    if not words or re.search(r"-\s|\s-|--|^-|-$", name):
        raise ValidationError(
            _("Part the words of a club's name with single spaces or hyphens."), code="separators"
        )
    for word in words:
        validate_username_characters(word)
    if not is_single_script("".join(words)):
        raise ValidationError(
            _("Write the name in a single alphabet (digits, '_' and '.' go with any)."),
            code="mixed_scripts",
        )
    if any(is_reserved(word) for word in words) or is_reserved("".join(words)):
        raise ValidationError(
            _("This name is reserved or looks like a reserved name. Please choose another."),
            code="reserved",
        )
    return name


def club_name_key(name: str) -> str:
    """Equal for two names a reader could mistake for each other."""
    return username_key(_SEPARATORS.sub("", normalize_username(_visible(name))))


def clean_text(value: str, *, max_length: int) -> str:
    """A description or an announcement as stored: NFKC, invisible characters out,
    trimmed; refused when too long or holding a link."""
    text = _visible(value or "").replace("\r\n", "\n").strip()
    if len(text) > max_length:
        raise ValidationError(
            _("At most %(max)d characters."), code="length", params={"max": max_length}
        )
    if any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in text):
        raise ValidationError(_("Remove the control characters."), code="control")
    if contains_link(text):
        raise ValidationError(_("Links are not allowed here."), code="link")
    return text


def clean_description(value: str) -> str:
    return clean_text(value, max_length=DESCRIPTION_MAX_LENGTH)


def clean_announcement(value: str) -> str:
    text = clean_text(value, max_length=ANNOUNCEMENT_MAX_LENGTH)
    if not text:
        raise ValidationError(_("Write the announcement."), code="empty")
    return text
