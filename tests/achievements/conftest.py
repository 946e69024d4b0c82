from tests.history.conftest import _game_settings  # noqa: F401  (bots off, caches clear)
