"""One error shape across the apps: every domain error has a stable `code` (a
snake_case word clients and interfaces decide on), JSON-ready `params`, and a
`message` for people. Refusals are data: the engine's carry the reason and its facts."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

import pytest

from accounts.errors import AccountsError
from clubs.errors import ClubError
from cuatrola.bots import BotError
from cuatrola.engine.errors import ERROR_CLASSES, EngineError
from economy.errors import EconomyError
from fairplay.errors import FairplayError
from games import errors as game_errors
from leagues.errors import LeagueError
from online.errors import OnlineError
from ratings.errors import RatingError
from social.errors import SocialError
from tournaments.errors import TournamentError

CODE = re.compile(r"^[a-z][a-z0-9_]*[a-z0-9]$")
APP_BASES = [
    AccountsError,
    ClubError,
    EconomyError,
    FairplayError,
    game_errors.GameError,
    LeagueError,
    OnlineError,
    RatingError,
    SocialError,
    TournamentError,
]


def family(base: type[Exception]) -> list[type[Exception]]:
    found, todo = [], [base]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


@pytest.mark.parametrize("base", APP_BASES, ids=lambda base: base.__module__)
def test_every_app_error_has_a_code_params_and_a_message(base):
    codes = {}
    for cls in family(base):
        error = cls()
        assert CODE.match(error.code), cls
        assert isinstance(error.params, Mapping) and json.dumps(dict(error.params)) == "{}"
        assert isinstance(error.message, str), cls
        assert error.message or base is AccountsError, cls  # accounts' carry the service's
        codes.setdefault(error.code, cls)
        assert codes[error.code] is cls, f"{cls} reuses {codes[error.code]}'s code"


@pytest.mark.parametrize("base", APP_BASES, ids=lambda base: base.__module__)
def test_every_app_base_is_the_one_domain_error(base):
    from ops.domain import DomainError

    assert issubclass(base, DomainError)
    assert "__init__" not in vars(base) and "message" not in vars(base)  # written once


def test_a_message_is_rendered_in_the_language_active_when_it_is_read():
    from django.utils import translation

    from online.errors import NotQueued

    error = NotQueued()
    with translation.override("es"):
        spanish = error.message
    with translation.override("en"):
        english = error.message
    assert english == "You are not in the queue." and spanish != english


def test_params_given_to_an_app_error_are_kept():
    error = game_errors.NotSeated(table=7)
    assert (error.code, error.params) == ("not_seated", {"table": 7})


def test_every_engine_and_bot_error_has_the_same_shape():
    classes = {cls for cls in family(EngineError)}
    assert classes == set(ERROR_CLASSES)
    seen: dict[str, type[EngineError]] = {}
    for cls in ERROR_CLASSES:
        assert cls.code == cls.codes[0]
        for code in cls.codes:
            assert CODE.match(code) and seen.setdefault(code, cls) is cls, code
            error = cls("what went wrong", code=code, seat=1)
            assert (error.code, error.message, dict(error.params)) == (
                code,
                "what went wrong",
                {"seat": 1},
            )
    with pytest.raises(ValueError, match="has no code"):
        EngineError("x", code="must_follow")
    for cls in family(BotError):
        error = cls("x")
        assert CODE.match(error.code) and error.params == {} and error.message == "x"


def test_every_move_refusal_the_engine_can_give_has_a_translated_reason():
    from games.words.catalogue import REFUSAL_WORDS

    move_refusals = {
        code
        for cls in ERROR_CLASSES
        if cls.__name__
        in {"MalformedAction", "NotYourTurn", "WrongPhase", "CardNotHeld", "BidTooLow"}
        | {"BidOverCap", "IllegalCard"}
        for code in cls.codes
    }
    assert move_refusals <= set(REFUSAL_WORDS)
