"""The site's pages for the daily (the API lives under /api/ in ``daily.urls``)."""

from django.urls import path
from django.views.i18n import JavaScriptCatalog

from daily import views

urlpatterns = [
    path("", views.today, name="today"),
    path("daily/<str:day>", views.day, name="day"),
    path("leaderboard", views.leaderboard, name="leaderboard"),
    path("me", views.me, name="me"),
    path("attempts/<int:attempt_id>/replay", views.replay, name="replay"),
    path("rules", views.rules, name="rules"),
    path("learn", views.learn, name="learn"),
    path("verify", views.verify, name="verify"),
    path("commitments", views.commitments, name="commitments"),
    # The translations of the pages' JavaScript (locale/*/LC_MESSAGES/djangojs.po).
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
]
