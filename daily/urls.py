from django.urls import path

from daily.apis import attempts

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
]
