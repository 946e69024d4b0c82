from django.urls import path

from accounts import views

urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
]
