from django.apps import AppConfig


class GroupsConfig(AppConfig):
    name = "groups"
    verbose_name = "Groups of friends"
