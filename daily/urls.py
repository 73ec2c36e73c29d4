"""The daily's API; what every kind of puzzle shares (an attempt's endpoints among them) is in
``play.urls``."""

from django.urls import path

from daily.apis import attempts
from daily.apis.leaderboards import DailyLeaderboardApi
from daily.apis.verify import VerifyDailyApi

urlpatterns = [
    path("daily/today", attempts.DailyTodayApi.as_view(), name="daily-today"),
    path("daily/<str:day>", attempts.DailyDayApi.as_view(), name="daily-day"),
    path("daily/<str:day>/attempts", attempts.DailyAttemptsApi.as_view(), name="daily-attempts"),
    path(
        "daily/<str:day>/leaderboard",
        DailyLeaderboardApi.as_view(),
        name="daily-leaderboard",
    ),
    path("verify/daily/<str:day>", VerifyDailyApi.as_view(), name="verify-daily"),
]
