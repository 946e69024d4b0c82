import html
import re
import threading

import pytest
from django.urls import reverse

from accounts.models import User

SIGNUP_URL = "/accounts/signup/"


def signup(client, password, **fields):
    data = {
        "username": "nuevo",
        "email": "nuevo@example.com",
        "password1": password,
        "password2": password,
    }
    data.update(fields)
    return client.post(SIGNUP_URL, data)


@pytest.mark.django_db
def test_a_new_user_signs_up_and_lands_logged_in(client, password):
    response = signup(client, password)
    assert response.status_code == 302
    user = User.objects.get(username="nuevo")
    assert user.email == "nuevo@example.com"
    assert int(client.session["_auth_user_id"]) == user.pk
    assert client.get(reverse("home")).context["user"] == user


@pytest.mark.django_db
@pytest.mark.parametrize("taken", ["ana", "ANA", "Ana"])
def test_a_taken_username_in_any_letter_case_is_refused(client, make_user, password, taken):
    make_user("ana")
    response = signup(client, password, username=taken, email="other@example.com")
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert User.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "username",
    [
        "ab",
        "a" * 21,
        "con espacio",
        "guion-medio",
        "emoji😀",
        "admin",
        "ADMIN",
        "staff",
        "bot_1",
        "Bot.2",
    ],
)
def test_an_invalid_or_reserved_username_is_refused(client, password, username):
    response = signup(client, password, username=username)
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["abc", "a" * 20, "María_88", "j.garcía"])
def test_usernames_of_letters_digits_underscore_and_dot_are_accepted(client, password, username):
    response = signup(client, password, username=username, email="x@example.com")
    assert response.status_code == 302
    assert User.objects.filter(username=username).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("email", ["not-an-email", "", "a@b"])
def test_an_invalid_email_is_refused(client, password, email):
    response = signup(client, password, email=email)
    assert response.status_code == 200
    assert response.context["form"].errors["email"]
    assert not User.objects.exists()


@pytest.mark.django_db
def test_a_taken_email_is_refused_in_any_letter_case(client, make_user, password):
    make_user("ana", email="ana@example.com")
    response = signup(client, password, email="ANA@example.com")
    assert response.status_code == 200
    assert response.context["form"].errors["email"]
    assert User.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("weak", ["123", "password", "12345678901"])
def test_a_weak_password_is_refused(client, weak):
    response = signup(client, weak)
    assert response.status_code == 200
    assert response.context["form"].errors["password1"]
    assert not User.objects.exists()


@pytest.mark.django_db
def test_mismatched_passwords_are_refused(client, password):
    response = signup(client, password, password2=password + "x")
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not User.objects.exists()


@pytest.mark.django_db
def test_the_signup_page_shows_the_username_rules(client):
    response = client.get(SIGNUP_URL)
    assert response.status_code == 200
    assert "3" in response.content.decode() and "20" in response.content.decode()


@pytest.mark.django_db
def test_with_mandatory_verification_a_new_user_must_confirm_the_email_first(
    client, password, settings, mailoutbox
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    response = signup(client, password)
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
    assert len(mailoutbox) == 1
    assert "nuevo@example.com" in mailoutbox[0].to


@pytest.mark.django_db
@pytest.mark.parametrize(
    "username",
    ["аdmin", "ａｄｍｉｎ", "Cuatrоla", "ѕupport", "ＳＵＰＰＯＲＴ", "rnoderator", "b0t_7"],
)
def test_a_name_that_looks_like_a_reserved_one_is_refused(client, password, username):
    response = signup(client, password, username=username)
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("lookalike", ["ѕрd7csib", "SPD7CSIB", "spd7cѕib", "ｓｐｄ７ｃｓｉｂ"])
def test_a_name_that_looks_like_an_existing_players_is_refused(
    client, make_user, password, lookalike
):
    make_user("spd7csib")
    response = signup(client, password, username=lookalike, email="other@example.com")
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert User.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("existing", "lookalike"), [("bob77", "b0b77"), ("marta", "rnarta")])
def test_a_same_script_look_alike_is_told_why(client, make_user, password, existing, lookalike):
    make_user(existing)
    response = signup(client, password, username=lookalike, email="other@example.com")
    errors = " ".join(response.context["form"].errors["username"])
    assert "se parece demasiado" in errors
    assert User.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("username", ["pаblo", "kim민수", "Ωmega", "josé_ю"])
def test_a_name_mixing_scripts_is_refused(client, password, username):
    response = signup(client, password, username=username)
    errors = " ".join(response.context["form"].errors["username"])
    assert "un solo alfabeto" in errors
    assert not User.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "username", ["Иван", "Ωμέγα", "김민수", "ジョン太郎", "josé.2", "Müller_9"]
)
def test_a_name_wholly_in_one_script_is_accepted(client, password, username):
    response = signup(client, password, username=username)
    assert response.status_code == 302
    assert User.objects.get().username == username


@pytest.mark.django_db
def test_a_full_width_name_is_stored_in_its_plain_form(client, password):
    response = signup(client, password, username="ｐｅｐｅ７")
    assert response.status_code == 302
    assert User.objects.get().username == "pepe7"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["es", "en", "fr", "it", "ko", "th"])
def test_the_username_field_states_and_enforces_the_same_limits_in_every_language(client, language):
    from accounts.validators import USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH

    page = client.get("/accounts/signup/", headers={"accept-language": language}).content.decode()
    field = re.search(r'<input[^>]*name="username"[^>]*>', page).group(0)
    assert f'maxlength="{USERNAME_MAX_LENGTH}"' in field
    assert f'minlength="{USERNAME_MIN_LENGTH}"' in field
    help_text = re.search(r'id="id_username_helptext"[^>]*>(.*?)<', page, re.S).group(1)
    assert str(USERNAME_MIN_LENGTH) in help_text
    assert str(USERNAME_MAX_LENGTH) in help_text


# Thai writes vowel signs and tone marks as combining marks (category Mn) on a consonant.
@pytest.mark.django_db
@pytest.mark.parametrize("username", ["สมชาย", "สมศักดิ์", "กิ่งแก้ว", "นิ่มนวล_9", "ผู้ชนะ.๒๕"])
def test_a_thai_name_with_its_vowel_signs_and_tone_marks_is_accepted(client, password, username):
    response = signup(client, password, username=username)
    assert response.status_code == 302
    assert User.objects.get().username == username


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "error"),
    [
        ("\u0e48สมชาย", "debe ir detrás de una letra"),  # a tone mark on nothing
        ("ab_\u0e49cd", "debe ir detrás de una letra"),  # on '_'
        ("ก9\u0e48ข", "debe ir detrás de una letra"),  # on a digit
        ("กิ่\u0e4c\u0e47ง", "como mucho tres"),  # four marks on one letter
        ("sam\u0e48chai", "un solo alfabeto"),  # a Thai mark on a Latin letter
        ("สมchai", "un solo alfabeto"),
        ("ab\u20ddc", "Usa solo letras"),  # an enclosing circle is not a letter's mark
        ("สม ชาย", "Usa solo letras"),
    ],
)
def test_a_mark_away_from_its_letter_or_of_another_script_is_refused(
    client, password, username, error
):
    response = signup(client, password, username=username)
    errors = " ".join(response.context["form"].errors["username"])
    assert error in errors
    assert not User.objects.exists()


@pytest.mark.django_db
def test_a_thai_name_that_only_differs_by_how_its_am_vowel_is_encoded_is_taken(
    client, make_user, password
):
    # SARA AM (U+0E33) and NIKHAHIT + SARA AA look the same and are the same name.
    make_user("น้ำใส")
    response = signup(client, password, username="น้\u0e4d\u0e32ใส", email="x@example.com")
    assert response.context["form"].errors["username"]
    assert User.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["es", "fr", "it", "ko", "th"])
def test_the_username_help_states_the_rule_enforced_in_the_page_language(client, language):
    from django.utils import translation

    from accounts.validators import USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, username_help

    page = client.get("/accounts/signup/", headers={"accept-language": language}).content.decode()
    found = re.search(r'id="id_username_helptext"[^>]*>(.*?)<', page, re.S).group(1)
    help_text = html.unescape(found).strip()
    with translation.override("en"):
        english = username_help()
    with translation.override(language):
        assert help_text == username_help()
    # Translated from the current rule (marks count as characters), not an older one.
    assert help_text != english
    assert str(USERNAME_MIN_LENGTH) in help_text and str(USERNAME_MAX_LENGTH) in help_text


@pytest.mark.django_db(transaction=True)
def test_two_look_alikes_signing_up_at_once_make_one_account(monkeypatch, password):
    """Both pass the look-alike check before either is saved, unless the check and
    the save are one transaction holding the key's lock (PostgreSQL)."""
    from django.db import connection
    from django.test import Client

    from accounts.adapter import AccountAdapter
    from tests.threads import run_together, someone_waits_on_a_lock

    if connection.vendor != "postgresql":
        pytest.skip("the lock is PostgreSQL's (SQLite runs one write at a time)")
    checked = AccountAdapter.clean_username
    passed = []  # usernames whose full check is done

    def check_then_linger(self, username, shallow=False):
        username = checked(self, username, shallow=shallow)
        if shallow:
            return username
        passed.append(username)
        # Until the other sign-up has passed its check too (the race: both pass) or
        # waits on the lock this one holds (the fix); never longer than 30 s.
        for _ in range(600):
            if len(passed) == 2 or someone_waits_on_a_lock():
                break
            threading.Event().wait(0.05)
        return username

    monkeypatch.setattr(AccountAdapter, "clean_username", check_then_linger)
    names = ["bobo77", "b0b077"]  # digits for letters: one script, one look

    def sign_up(index):
        response = signup(Client(), password, username=names[index], email=f"b{index}@example.com")
        return response.status_code

    codes = run_together(2, sign_up)
    assert sorted(codes) == [200, 302], codes  # one account; the other told why
    assert User.objects.count() == 1
