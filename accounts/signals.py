"""Signals other apps connect to.

`user_banned` is sent after the ban's transaction has committed, with
`sender=User`, `user` and `ban`. The games app connects to it to give the
user's seat to a bot and to take them out of every queue.

The receivers below close a user's sockets when their session ends (logging
out) or their password changes (docs/protocol.md "Moderation").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.dispatch import Signal

if TYPE_CHECKING:  # not at import: other apps import this module while apps load
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.http import HttpRequest

user_banned = Signal()
user_unbanned = Signal()


def close_sockets_on_logout(
    sender: Any, request: HttpRequest, user: AbstractBaseUser | None, **kwargs: Any
) -> None:
    """Sent before the session is flushed: its key still names its sockets."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        from accounts.services import session_sockets_close

        transaction.on_commit(lambda: session_sockets_close(session_key=session_key))


def close_sockets_on_password_change(
    sender: Any, instance: AbstractBaseUser, created: bool, **kwargs: Any
) -> None:
    """Every way of setting a password (the change and reset forms, the admin,
    `changepassword`) saves with the new raw password still on the instance."""
    if created or getattr(instance, "_password", None) is None:
        return
    from accounts.services import user_sockets_close

    user_id = instance.pk
    transaction.on_commit(lambda: user_sockets_close(user_id=user_id))
