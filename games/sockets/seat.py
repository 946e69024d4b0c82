"""The seat a table socket shows: the one its user holds, as the latest state it was
given says.

A table socket's first frame is built under the table's lock together with the seat
it is for (`services.table_join`), a `sync` reads the seat and its state in one
snapshot, and every broadcast says where each user sits (`sitting`). Whichever of
these is the latest (by the table's `seq`) decides the seat the socket forwards; an
older one never moves it back. The process vouches for the seat while the socket
shows it (games/sockets/heartbeat.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from games.frames import builder
from games.sockets import heartbeat


class SeatShown:
    """The seat (or none: the spectators' view) one socket forwards the frames of."""

    def __init__(
        self,
        *,
        vouch: Callable[[list[int]], Awaitable[object]],
        changed: Callable[[int | None], None],
    ) -> None:
        self.vouch = vouch  # stores the heartbeat's sign of life for the seats
        self.changed = changed  # told each new position
        self.position: int | None = None
        self.frame_key: str = builder.WATCH_KEY
        self.seat_id: int | None = None  # that seat's row, vouched for
        self.seq = 0  # the table's `seq` of the latest frame this socket was given

    def newer(self, seq: Any) -> bool:
        """A broadcast at `seq`: False when it is older than a frame already given
        (the page drops it, and so does the socket), else it is the latest."""
        if isinstance(seq, int):
            if seq < self.seq:
                return False
            self.seq = seq
        return True

    def seen(self, seq: int) -> None:
        """A spectator's state read at `seq` (no seat to adopt)."""
        self.seq = max(self.seq, seq)

    def adopt(self, seq: int, position: int | None, seat_id: int | None) -> bool:
        """A state read at `seq` found the user at `position`: the socket shows that
        seat from now on, unless it was already given a later frame."""
        if seq < self.seq:
            return False
        self.seq = seq
        self.set(position, seat_id)
        return True

    def moved(self, sitting: dict[str, Any], user_id: int) -> None:
        """A broadcast says where each user now sits: a player moved to another seat
        (or who freed theirs) shows that seat's frames (or the spectators')."""
        if self.position is None:
            return
        seat = sitting.get(str(user_id))
        position, seat_id = seat if seat is not None else (None, None)
        self.set(position, seat_id)

    def set(self, position: int | None, seat_id: int | None) -> None:
        """The seat this socket forwards, and the one the process vouches for (each
        socket vouches for one seat at most)."""
        self.position = position
        self.frame_key = builder.frame_key(position)
        self.changed(position)
        if seat_id != self.seat_id:
            if self.seat_id is not None:
                heartbeat.closed(self.seat_id)
            self.seat_id = seat_id
            if seat_id is not None:
                heartbeat.opened(seat_id, self.vouch)
