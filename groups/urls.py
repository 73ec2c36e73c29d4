from django.urls import path

from groups import apis

urlpatterns = [
    path("groups", apis.GroupsApi.as_view(), name="api-groups"),
    path("groups/<str:code>", apis.GroupApi.as_view(), name="api-group"),
    path("groups/<str:code>/members", apis.GroupMembersApi.as_view(), name="api-group-members"),
    path("groups/<str:code>/members/me", apis.GroupLeaveApi.as_view(), name="api-group-leave"),
    path(
        "groups/<str:code>/members/<int:player_id>",
        apis.GroupMemberApi.as_view(),
        name="api-group-member",
    ),
    path("groups/<str:code>/removed", apis.GroupRemovedApi.as_view(), name="api-group-removed"),
    path(
        "groups/<str:code>/removed/<int:player_id>",
        apis.GroupRemovedPlayerApi.as_view(),
        name="api-group-removed-player",
    ),
    path("groups/<str:code>/code", apis.GroupCodeApi.as_view(), name="api-group-code"),
    path("groups/<str:code>/table", apis.GroupTableApi.as_view(), name="api-group-table"),
    path("groups/<str:code>/season", apis.GroupSeasonApi.as_view(), name="api-group-season"),
]
