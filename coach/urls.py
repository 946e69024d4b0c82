from django.urls import path

from coach import views

app_name = "coach"

urlpatterns = [
    path("coach/matches/<int:match_id>/analyse/", views.analyse, name="analyse"),
    path("coach/matches/<int:match_id>/", views.status, name="status"),
    path("coach/decisions/<int:decision_id>/practise/", views.practise, name="practise"),
    path("coach/practice/<int:table_id>/", views.practice_panel, name="practice_panel"),
]
