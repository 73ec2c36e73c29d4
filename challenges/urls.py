from django.urls import path

from challenges import apis

urlpatterns = [
    path("challenges", apis.ChallengesApi.as_view(), name="challenges"),
    path("challenges/<str:code>", apis.ChallengeApi.as_view(), name="challenge"),
    path(
        "challenges/<str:code>/attempts",
        apis.ChallengeAttemptsApi.as_view(),
        name="challenge-attempts",
    ),
    path(
        "challenges/<str:code>/leaderboard",
        apis.ChallengeLeaderboardApi.as_view(),
        name="challenge-leaderboard",
    ),
    path(
        "verify/challenges/<str:code>", apis.VerifyChallengeApi.as_view(), name="verify-challenge"
    ),
    path("me/challenges", apis.MyChallengesApi.as_view(), name="my-challenges"),
]
