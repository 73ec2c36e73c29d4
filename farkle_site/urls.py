"""The site's URLs."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from farkle_site import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("api/", include("play.urls")),
    path("api/", include("daily.urls")),
    path("api/", include("challenges.urls")),
    path("api/", include("groups.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", views.ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # The pages.
    path("", include("daily.web_urls")),
    path("", include("challenges.web_urls")),
    path("", include("groups.web_urls")),
]

handler400 = "farkle_site.views.bad_request"
handler403 = "farkle_site.views.permission_denied"
handler404 = "farkle_site.views.not_found"
handler500 = "farkle_site.views.server_error"
