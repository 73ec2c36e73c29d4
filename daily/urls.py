from django.urls import path

from daily.apis import analysis, attempts
from daily.apis import players as player_apis
from daily.apis import rules as rules_apis
from daily.apis.leaderboards import DailyLeaderboardApi
from daily.apis.verify import VerifyDailyApi

urlpatterns = [
    path("daily/today", attempts.DailyTodayApi.as_view(), name="daily-today"),
    path("daily/<str:day>", attempts.DailyDayApi.as_view(), name="daily-day"),
    path("daily/<str:day>/attempts", attempts.DailyAttemptsApi.as_view(), name="daily-attempts"),
    path("attempts/<int:attempt_id>", attempts.AttemptApi.as_view(), name="attempt"),
    path(
        "attempts/<int:attempt_id>/actions",
        attempts.AttemptActionsApi.as_view(),
        name="attempt-actions",
    ),
    path(
        "attempts/<int:attempt_id>/analysis",
        analysis.AttemptAnalysisApi.as_view(),
        name="attempt-analysis",
    ),
    path(
        "attempts/<int:attempt_id>/coach", analysis.AttemptCoachApi.as_view(), name="attempt-coach"
    ),
    path(
        "daily/<str:day>/leaderboard",
        DailyLeaderboardApi.as_view(),
        name="daily-leaderboard",
    ),
    path("me", player_apis.MeApi.as_view(), name="me"),
    path("auth/signup", player_apis.SignupApi.as_view(), name="auth-signup"),
    path("auth/login", player_apis.LoginApi.as_view(), name="auth-login"),
    path("auth/logout", player_apis.LogoutApi.as_view(), name="auth-logout"),
    path("rules", rules_apis.RulesApi.as_view(), name="rules"),
    path("verify/daily/<str:day>", VerifyDailyApi.as_view(), name="verify-daily"),
]
