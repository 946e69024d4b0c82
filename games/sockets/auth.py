"""Who opened a websocket: the session and its user, read on the sockets' database
threads.

channels' `AuthMiddleware` reads them with `database_sync_to_async`, which runs
every such call of the process on one thread, one after another. When a web
process dies, the pages of all its tables reconnect to the other at once, and
each waited there for every handshake ahead of it (two queries each) before its
own could even be admitted. Here the read is a call in the seats' lane of the
database threads (games/sockets/db_threads.py), which run several at a time and
give each socket its turn with the sockets already open.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware

from games.sockets.consumers import db_threads
from games.sockets.db_threads import Lane

# The function `channels.auth.get_user` wraps in `database_sync_to_async`.
_read_user = get_user.func


class SocketAuthMiddleware(AuthMiddleware):
    """`AuthMiddleware`, its read on the database threads."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        # Each handshake is its own owner: served in turn with everyone else's calls.
        scope["user"]._wrapped = await db_threads().run(
            _read_user, scope, lane=Lane.SEAT, owner=object()
        )


def socket_auth_stack(inner: Any) -> Any:
    """Cookies, the session, then `SocketAuthMiddleware`, as `AuthMiddlewareStack`."""
    return CookieMiddleware(SessionMiddleware(SocketAuthMiddleware(inner)))
