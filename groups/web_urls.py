"""The site's pages for groups (the API lives under /api/ in ``groups.urls``)."""

from django.urls import path

from groups import views

urlpatterns = [
    path("g/", views.enter, name="group-enter"),
    path("g/<str:code>", views.group, name="group"),
]
