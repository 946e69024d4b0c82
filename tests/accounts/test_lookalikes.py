"""TR39 skeletons and single-script names, and the command that lists look-alikes."""

from io import StringIO

import pytest
from django.core.management import call_command

from accounts.lookalikes import is_single_script, script_of, skeleton, username_key


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("admin", "аdmin"),
        ("admin", "ａｄｍｉｎ"),
        ("Admin", "ADMIN"),
        ("spd7csib", "ѕрd7csib"),
        ("bob", "b0b"),
        ("moderator", "rnoderator"),
        ("cuatrola", "Cuatrоla"),
    ],
)
def test_look_alike_names_share_a_key(first, second):
    assert username_key(first) == username_key(second)


@pytest.mark.parametrize(("first", "second"), [("ana", "ama"), ("pepe", "pepa"), ("josé", "jose")])
def test_different_names_keep_different_keys(first, second):
    assert username_key(first) != username_key(second)


def test_the_skeleton_follows_unicodes_prototypes():
    assert skeleton("ѕ") == "s"
    assert skeleton("m") == "rn"
    assert script_of("а") == "Cyrillic" and script_of("a") == "Latin" and script_of("7") == "Common"


@pytest.mark.parametrize(
    ("name", "single"),
    [
        ("ana_7.x", True),
        ("Иван", True),
        ("ジョン太郎", True),  # Japanese: Han with Katakana
        ("김金", True),  # Korean: Hangul with Han
        ("аdmin", False),
        ("kim민수", False),
    ],
)
def test_a_name_is_single_script_when_one_writing_system_covers_it(name, single):
    assert is_single_script(name) is single


@pytest.mark.django_db
def test_the_command_reports_existing_look_alikes_for_staff_to_review(make_user):
    make_user("spd7csib")
    make_user("ѕрd7csib", email="a@example.com")
    make_user("аdmin", email="b@example.com")
    make_user("pаblo", email="c@example.com")
    make_user("honest")
    out = StringIO()
    call_command("report_lookalike_usernames", stdout=out)
    text = out.getvalue()
    assert "spd7csib" in text and "ѕрd7csib" in text
    assert "аdmin" in text and "admin" in text  # like a reserved name
    assert "pаblo" in text  # mixed scripts
    assert "honest" not in text


@pytest.mark.django_db
def test_the_command_says_so_when_there_is_nothing_to_review(make_user):
    make_user("honest")
    out = StringIO()
    call_command("report_lookalike_usernames", stdout=out)
    assert "No look-alike" in out.getvalue()
