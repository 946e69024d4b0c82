from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """Each player's rating for the online rule set (docs/ratings.md): updated by the
    online and stake settlement (`ratings.services.match_rate`, called by online),
    read by the queue, the table, the player page and the leaderboard."""

    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from games.hooks import register_ratings
        from ratings.selectors import bot_rating, match_rating_changes, seat_rating

        register_ratings(seat=seat_rating, bot=bot_rating, match=match_rating_changes)
