"""Every message a table socket receives, parsed once, at the edge, into a typed
message (as lila-ws's `ClientOut`): the handlers receive `Sync`, `Ping`, `Play`,
`Talk` and `Mute`, never a raw dict. A message that is none of them is a `Bad`
message, answered with its error frame as docs/protocol.md says ("Errors"):

- `too_large`: a text message over MAX_MESSAGE_BYTES (UTF-8 bytes);
- `malformed`: a binary frame, not JSON, not an object, or a known type with the
  wrong fields (a `play` without a string `action` and an integer `version`, a
  `talk` without exactly one of a string `phrase` or `text`, a `mute` without a seat
  number and true or false);
- `unknown_type`: any other `type`.

A message's `id` (a string or an integer) comes back on its answer; any other value
is no id.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypeIs

from django.utils.translation import gettext_lazy as _

# A client message's limit, far below the server's own (uvicorn, --ws-max-size, closes
# the socket with 1009 over 1 MiB, before the application sees the message): a message over it gets
# a `too_large` error frame and the socket stays open (docs/protocol.md).
MAX_MESSAGE_BYTES = 4096

TOO_BIG = _("Send JSON text frames of at most 4 KiB.")
NOT_JSON = _("That is not JSON.")
NOT_AN_OBJECT = _("Send a JSON object.")
UNKNOWN_TYPE = _("Unknown message type.")
BAD_PLAY = _("A play needs a string action and an integer version.")
BAD_TALK = _("Talk needs either a phrase id or a text, as a string.")
BAD_MUTE = _("A mute needs a seat number and true or false.")

#: A request's id, echoed on its answer.
RequestId = str | int | None


@dataclass(frozen=True)
class Sync:
    """Send the whole state again (docs/protocol.md, "Resync")."""

    id: RequestId = None


@dataclass(frozen=True)
class Ping:
    id: RequestId = None


@dataclass(frozen=True)
class Play:
    """A bid or a card, at the state `version` the client saw."""

    action: str
    version: int
    id: RequestId = None


@dataclass(frozen=True)
class Talk:
    """A fixed phrase (its id) or free text: exactly one of them."""

    phrase: str | None
    text: str | None
    id: RequestId = None


@dataclass(frozen=True)
class Mute:
    """Mute or unmute the player at `seat`, for this user."""

    seat: int
    muted: bool
    id: RequestId = None


@dataclass(frozen=True)
class Bad:
    """A message that is none of the above: the error frame's code and message, and
    the `type` it claimed when it was an object with a known one."""

    code: str
    message: Any
    id: RequestId = None
    type: str | None = None


#: What a table socket's client may send.
ClientOut = Sync | Ping | Play | Talk | Mute


_TYPES: dict[type, str] = {Sync: "sync", Ping: "ping", Play: "play", Talk: "talk", Mute: "mute"}


def type_of(message: ClientOut | Bad) -> str | None:
    """The `type` the client wrote for `message` (a `retry` frame names it)."""
    if isinstance(message, Bad):
        return message.type
    return _TYPES[type(message)]


def _int(value: Any) -> TypeIs[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _request_id(message: dict[str, Any]) -> RequestId:
    found = message.get("id")
    return found if isinstance(found, str) or _int(found) else None


def parse(text_data: str | None) -> ClientOut | Bad:
    """The typed message `text_data` holds (None: a binary frame), or why it is none."""
    if text_data is None:
        return Bad("malformed", TOO_BIG)
    # Characters first (cheap), then the UTF-8 bytes the limit is about.
    if len(text_data) > MAX_MESSAGE_BYTES or len(text_data.encode()) > MAX_MESSAGE_BYTES:
        return Bad("too_large", TOO_BIG)
    try:
        message = json.loads(text_data)
    except ValueError:
        return Bad("malformed", NOT_JSON)
    if not isinstance(message, dict):
        return Bad("malformed", NOT_AN_OBJECT)
    request_id = _request_id(message)
    kind = message.get("type")
    match kind:
        case "sync":
            return Sync(request_id)
        case "ping":
            return Ping(request_id)
        case "play":
            action, version = message.get("action"), message.get("version")
            if isinstance(action, str) and _int(version):
                return Play(action, version, request_id)
            return Bad("malformed", BAD_PLAY, request_id, kind)
        case "talk":
            phrase, text = message.get("phrase"), message.get("text")
            if (phrase is None) != (text is None) and isinstance(phrase or text, str):
                return Talk(phrase, text, request_id)
            return Bad("malformed", BAD_TALK, request_id, kind)
        case "mute":
            seat, muted = message.get("seat"), message.get("muted")
            if _int(seat) and isinstance(muted, bool):
                return Mute(seat, muted, request_id)
            return Bad("malformed", BAD_MUTE, request_id, kind)
    return Bad("unknown_type", UNKNOWN_TYPE, request_id)
