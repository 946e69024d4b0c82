from django.utils.translation import gettext_lazy as _


class NotificationError(Exception):
    message = _("That cannot be done.")


class NotificationNotFound(NotificationError):
    message = _("No such notification.")


class UnknownKind(NotificationError):
    message = _("Unknown kind of notification.")


class BadSubscription(NotificationError):
    message = _("That push subscription is not valid.")
