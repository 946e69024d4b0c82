from accounts.models import User


def user_set_language(*, user: User, language: str) -> None:
    """Remember the language a logged-in user chose."""
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])
