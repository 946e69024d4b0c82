from django.urls import path

from economy import views

urlpatterns = [
    path("wallet/", views.wallet, name="wallet"),
    path("wallet/daily-bonus/", views.daily_bonus, name="daily_bonus"),
    path("shop/", views.shop, name="shop"),
    path("shop/<slug:code>/confirm/", views.purchase_confirm, name="purchase_confirm"),
    path("shop/<slug:code>/buy/", views.purchase, name="purchase"),
]
