"""The accounts app's signal receivers, connected in `AccountsConfig.ready()`: a user's
sockets close when their session ends (logging out) or their password changes
(docs/protocol.md "Moderation"); every sign-in is recorded with its network and
device (docs/moderation.md, "Linked accounts")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.http import HttpRequest

from accounts.http import client_address
from accounts.links import DEVICE_ID_ATTRIBUTE, device_id_new, device_id_valid
from accounts.services import session_sockets_close, sign_in_record, user_sockets_close


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


def record_sign_in(
    sender: Any, request: HttpRequest | None, user: AbstractBaseUser, **kwargs: Any
) -> None:
    """Every successful sign-in (allauth's log-in, the one after a sign-up, the admin's
    through allauth), with the client's network and the browser's device cookie: the
    cookie's id is kept when it is well formed, else a new one is made. The id is left
    on the request for DeviceCookieMiddleware, which sets the cookie on the answer
    (renewing its expiry). A missing or malformed address records no network; it
    never stops the sign-in."""
    if request is None or user.pk is None:
        return
    cookie = request.COOKIES.get(settings.DEVICE_COOKIE_NAME)
    device_id = cookie if cookie is not None and device_id_valid(cookie) else device_id_new()
    sign_in_record(user_id=user.pk, address=client_address(request), device_id=device_id)
    setattr(request, DEVICE_ID_ATTRIBUTE, device_id)
