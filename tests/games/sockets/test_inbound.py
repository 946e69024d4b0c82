"""Every message a table socket receives, parsed once into a typed message
(games/sockets/inbound.py); a bad one names its error as docs/protocol.md does."""

from __future__ import annotations

import json

import pytest

from games.sockets import inbound
from games.sockets.inbound import Bad, Mute, Ping, Play, Sync, Talk, parse


@pytest.mark.parametrize(
    ("sent", "parsed"),
    [
        ({"type": "sync"}, Sync()),
        ({"type": "sync", "id": 3}, Sync(3)),
        ({"type": "ping", "id": "a"}, Ping("a")),
        ({"type": "play", "action": "pass", "version": 4, "id": 9}, Play("pass", 4, 9)),
        ({"type": "play", "action": "1o", "version": 0}, Play("1o", 0)),
        ({"type": "talk", "phrase": "hello"}, Talk("hello", None)),
        ({"type": "talk", "text": "hola", "id": 1}, Talk(None, "hola", 1)),
        ({"type": "mute", "seat": 2, "muted": False}, Mute(2, False)),
    ],
)
def test_each_message_is_parsed_into_its_type(sent, parsed):
    assert parse(json.dumps(sent)) == parsed


@pytest.mark.parametrize("request_id", [True, None, 1.5, [1], {"a": 1}])
def test_an_id_that_is_not_a_string_or_an_integer_is_no_id(request_id):
    assert parse(json.dumps({"type": "ping", "id": request_id})) == Ping(None)


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        (None, "malformed", inbound.TOO_BIG),  # a binary frame
        ("x" * 4097, "too_large", inbound.TOO_BIG),
        (
            json.dumps({"type": "talk", "text": "é" * 2100}, ensure_ascii=False),
            "too_large",
            inbound.TOO_BIG,
        ),
        ("not json", "malformed", inbound.NOT_JSON),
        ("[1, 2]", "malformed", inbound.NOT_AN_OBJECT),
        ('"play"', "malformed", inbound.NOT_AN_OBJECT),
        (json.dumps({"type": "dance"}), "unknown_type", inbound.UNKNOWN_TYPE),
        (json.dumps({"type": None}), "unknown_type", inbound.UNKNOWN_TYPE),
        (json.dumps({}), "unknown_type", inbound.UNKNOWN_TYPE),
        (json.dumps({"type": "play", "action": 3, "version": 1}), "malformed", inbound.BAD_PLAY),
        (json.dumps({"type": "play", "action": "pass"}), "malformed", inbound.BAD_PLAY),
        (
            json.dumps({"type": "play", "action": "pass", "version": True}),
            "malformed",
            inbound.BAD_PLAY,
        ),
        (
            json.dumps({"type": "play", "action": "pass", "version": "1"}),
            "malformed",
            inbound.BAD_PLAY,
        ),
        (json.dumps({"type": "talk"}), "malformed", inbound.BAD_TALK),
        (json.dumps({"type": "talk", "phrase": ""}), "malformed", inbound.BAD_TALK),
        (json.dumps({"type": "talk", "phrase": 5}), "malformed", inbound.BAD_TALK),
        (
            json.dumps({"type": "talk", "phrase": "hello", "text": "hola"}),
            "malformed",
            inbound.BAD_TALK,
        ),
        (json.dumps({"type": "mute", "seat": "1", "muted": True}), "malformed", inbound.BAD_MUTE),
        (json.dumps({"type": "mute", "seat": True, "muted": True}), "malformed", inbound.BAD_MUTE),
        (json.dumps({"type": "mute", "seat": 1, "muted": 1}), "malformed", inbound.BAD_MUTE),
    ],
)
def test_a_bad_message_names_its_error(text, code, message):
    bad = parse(text)
    assert isinstance(bad, Bad)
    assert (bad.code, bad.message) == (code, message)


def test_a_bad_message_of_a_known_type_keeps_its_type_and_id():
    assert parse(json.dumps({"type": "play", "id": 7})) == Bad(
        "malformed", inbound.BAD_PLAY, 7, "play"
    )
    assert parse(json.dumps({"type": "dance", "id": "x"})) == Bad(
        "unknown_type", inbound.UNKNOWN_TYPE, "x"
    )


def test_the_limit_is_4_kib_of_utf_8_not_characters():
    under = json.dumps({"type": "talk", "text": "a" * 4000})
    assert isinstance(parse(under), Talk)
    over = json.dumps({"type": "talk", "text": "ñ" * 2040}, ensure_ascii=False)
    assert len(over) <= inbound.MAX_MESSAGE_BYTES < len(over.encode())
    assert parse(over) == Bad("too_large", inbound.TOO_BIG)
