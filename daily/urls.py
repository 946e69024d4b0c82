from django.urls import path, register_converter

from daily import views


class DateConverter:
    """A calendar date written YYYY-MM-DD in a URL (anything else: no match, a 404)."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)


register_converter(DateConverter, "day")

app_name = "daily"

urlpatterns = [
    path("daily/", views.home, name="home"),
    path("daily/play/", views.play, name="play"),
    path("daily/ranking/", views.ranking_today, name="ranking_today"),
    path("daily/<day:day>/ranking/", views.ranking, name="ranking"),
    path("daily/<day:day>/deals/<int:number>/", views.deal, name="deal"),
    path("daily/<day:day>/deals.json", views.offline_deals, name="offline_deals"),
]
