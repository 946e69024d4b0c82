import pytest
from django.core.management import call_command

from accounts.models import User


@pytest.mark.django_db
def test_seed_creates_the_administrator_once(monkeypatch, capsys):
    monkeypatch.setenv("ADMIN_USERNAME", "jefa")
    monkeypatch.setenv("ADMIN_PASSWORD", "a-Long-admin-passphrase-1")
    call_command("seed")
    call_command("seed")
    admin = User.objects.get(username="jefa")
    assert admin.is_superuser and admin.check_password("a-Long-admin-passphrase-1")
    assert User.objects.count() == 1
    assert "administrator jefa created" in capsys.readouterr().out


@pytest.mark.django_db
def test_seed_without_admin_variables_creates_no_user(monkeypatch):
    monkeypatch.delenv("ADMIN_USERNAME", raising=False)
    call_command("seed")
    assert not User.objects.exists()
