"""The API every kind of puzzle shares: an attempt's state and actions, its analysis, the player
and accounts, the rules (the daily's endpoints are in ``daily.urls``, the challenges' in
``challenges.urls``)."""

from django.urls import path

from play.apis import analysis
from play.apis import attempts as attempt_apis
from play.apis import players as player_apis
from play.apis import rules as rules_apis

urlpatterns = [
    path("attempts/<int:attempt_id>", attempt_apis.AttemptApi.as_view(), name="attempt"),
    path(
        "attempts/<int:attempt_id>/actions",
        attempt_apis.AttemptActionsApi.as_view(),
        name="attempt-actions",
    ),
    path(
        "attempts/<int:attempt_id>/analysis",
        analysis.AttemptAnalysisApi.as_view(),
        name="attempt-analysis",
    ),
    path(
        "attempts/<int:attempt_id>/retries",
        attempt_apis.AttemptRetriesApi.as_view(),
        name="attempt-retries",
    ),
    path(
        "attempts/<int:attempt_id>/coach", analysis.AttemptCoachApi.as_view(), name="attempt-coach"
    ),
    path("me", player_apis.MeApi.as_view(), name="me"),
    path("auth/signup", player_apis.SignupApi.as_view(), name="auth-signup"),
    path("auth/login", player_apis.LoginApi.as_view(), name="auth-login"),
    path("auth/logout", player_apis.LogoutApi.as_view(), name="auth-logout"),
    path("rules", rules_apis.RulesApi.as_view(), name="rules"),
]
