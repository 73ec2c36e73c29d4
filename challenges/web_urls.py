"""The site's pages for friend challenges (the API lives under /api/ in ``challenges.urls``)."""

from django.urls import path

from challenges import views

urlpatterns = [
    path("challenges/new", views.new, name="challenge-new"),
    path("c/", views.enter, name="challenge-enter"),
    path("c/<str:code>", views.challenge, name="challenge"),
]
