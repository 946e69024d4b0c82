"""What a table socket shows of the talk (games/sockets/talk.py)."""

from __future__ import annotations

from games.sockets.talk import TalkShown


def line(speaker, *, hidden_from=(), watchers_only=False, phrase="hello"):
    return {
        "hidden_from": list(hidden_from),
        "watchers_only": watchers_only,
        "speaker": speaker,
        "line": {"seat": 1, "name": "ana", "phrase": phrase, "text": None},
    }


def test_a_phrase_is_written_in_the_sockets_language():
    frame = TalkShown().frame(line(1), user_id=2, position=0, language="es")
    assert frame["type"] == "talk" and frame["text"] == "¡Hola!" and frame["label"] == "¡Hola!"
    frame = TalkShown().frame(line(1), user_id=2, position=0, language="en")
    assert frame["text"] == "Hello!"


def test_a_line_hidden_from_the_user_is_not_shown():
    assert TalkShown().frame(line(1, hidden_from=[2]), user_id=2, position=0, language="es") is None


def test_players_never_see_what_watchers_say_and_watchers_do():
    said = line(5, watchers_only=True)
    assert TalkShown().frame(said, user_id=2, position=0, language="es") is None
    assert TalkShown().frame(said, user_id=3, position=None, language="es") is not None


def test_a_watchers_filter_hides_others_but_never_their_own_lines():
    blocking = TalkShown(blocked=frozenset({1}))
    assert blocking.frame(line(1), user_id=3, position=None, language="es") is None
    assert blocking.frame(line(4), user_id=3, position=None, language="es") is not None
    quiet = TalkShown(hidden=True)
    assert quiet.frame(line(4), user_id=3, position=None, language="es") is None
    assert quiet.frame(line(3), user_id=3, position=None, language="es") is not None
    # a player's socket has no such filter
    assert blocking.frame(line(1), user_id=3, position=2, language="es") is not None
