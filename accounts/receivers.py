"""The accounts app's signal receivers, connected in `AccountsConfig.ready()`: a user's
sockets close when their session ends (logging out) or their password changes
(docs/protocol.md "Moderation")."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.http import HttpRequest

from accounts.services import session_sockets_close, user_sockets_close


def close_sockets_on_logout(
    sender: Any, request: HttpRequest, user: AbstractBaseUser | None, **kwargs: Any
) -> None:
    """Sent before the session is flushed: its key still names its sockets."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        transaction.on_commit(lambda: session_sockets_close(session_key=session_key))


def close_sockets_on_password_change(
    sender: Any, instance: AbstractBaseUser, created: bool, **kwargs: Any
) -> None:
    """Every way of setting a password (the change and reset forms, the admin,
    `changepassword`) saves with the new raw password still on the instance."""
    if created or getattr(instance, "_password", None) is None:
        return
    user_id = instance.pk
    transaction.on_commit(lambda: user_sockets_close(user_id=user_id))
