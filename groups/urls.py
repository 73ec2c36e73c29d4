from django.urls import path

from groups import apis

urlpatterns = [
    path("groups", apis.GroupsApi.as_view(), name="groups"),
    path("groups/<str:code>", apis.GroupApi.as_view(), name="group"),
    path("groups/<str:code>/members", apis.GroupMembersApi.as_view(), name="group-members"),
    path("groups/<str:code>/members/me", apis.GroupLeaveApi.as_view(), name="group-leave"),
    path(
        "groups/<str:code>/members/<int:player_id>",
        apis.GroupMemberApi.as_view(),
        name="group-member",
    ),
    path("groups/<str:code>/table", apis.GroupTableApi.as_view(), name="group-table"),
    path("groups/<str:code>/season", apis.GroupSeasonApi.as_view(), name="group-season"),
]
