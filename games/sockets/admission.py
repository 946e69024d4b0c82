"""Whether a table socket may open, and the close code that says why not
(docs/protocol.md, "Close codes"; docs/watching.md).

A refused socket is accepted, then closed with its code: a browser sees the code
and knows not to retry, where a refused handshake shows only 1006. The checks a
socket makes before it joins anything are one database read (`read`, in a database
thread): whether the user may see the table and from which seat, whether they are
banned, why they may not watch it.
"""

from __future__ import annotations

from typing import Any

from games import selectors

# Close codes (4000–4999 are the application's; the guard has the others).
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_ALLOWED = 4403
CLOSE_NOT_FOUND = 4404
# A watcher refused (docs/watching.md): watchers are forbidden at the table; it has
# WATCHERS_PER_TABLE watchers; the user holds WATCH_SOCKETS_PER_USER watching sockets;
# the user is playing a match of their own; WATCHERS_PER_ADDRESS_PER_TABLE watch it
# from the user's address.
CLOSE_WATCH_FORBIDDEN = 4433
CLOSE_WATCHERS_FULL = 4434
CLOSE_WATCHING_ENOUGH = 4435
CLOSE_PLAYING_ELSEWHERE = 4436
CLOSE_WATCHERS_FROM_ADDRESS = 4437
# Not a refusal: the server cannot serve the socket now, the page reconnects. 4500:
# this web process is restarting (SIGTERM; cuatrola_site/shutdown.py), reconnect now
# (to the other process); 4503: the database did not answer while the socket opened
# (a PostgreSQL restart), reconnect in a moment.
CLOSE_RESTARTING = 4500
CLOSE_RETRY_SOON = 4503

_WATCH_REFUSALS = {
    selectors.FORBIDDEN: CLOSE_WATCH_FORBIDDEN,
    selectors.PLAYING_ELSEWHERE: CLOSE_PLAYING_ELSEWHERE,
}


def table_id_of(scope: dict[str, Any]) -> int | None:
    """The table a socket's URL names (None: no such table can exist)."""
    try:
        return int(scope["url_route"]["kwargs"]["table_id"])
    except (KeyError, ValueError):
        return None


def read(user: Any, table_id: int) -> selectors.Admission:
    """What the socket learns before it joins anything (a database thread's call)."""
    return selectors.table_admission(user=user, table_id=table_id)


def refusal(admission: selectors.Admission) -> int | None:
    """The close code that refuses a socket so admitted, or None: it may open."""
    if not admission.found:
        return CLOSE_NOT_FOUND
    if admission.banned:
        return CLOSE_NOT_ALLOWED
    if admission.refusal is not None:
        return watch_refused(admission.refusal)
    return None


def watch_refused(reason: str) -> int:
    """The close code of a watcher refused for `reason` (`selectors.watch_refusal`)."""
    return _WATCH_REFUSALS[reason]
