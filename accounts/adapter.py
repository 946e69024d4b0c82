from allauth.account.adapter import DefaultAccountAdapter
from django.utils.translation import gettext as _


class AccountAdapter(DefaultAccountAdapter):
    """The house rules allauth consults."""

    def format_email_subject(self, subject):
        return _("[Cuatrola Online] %(subject)s") % {"subject": subject}
