"""A tiny DRF API for the token tests, in front of the project's URL conf: who am I (any signed-in user), and an
admin-only write (is_staff, as the pages' admin role) that changes an audited row."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.urls import path
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

import config.urls


class WhoAmI(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request):
        return Response({"user": request.user.get_username(), "token": getattr(request.auth, "prefix", None)})


class RenameMe(APIView):
    permission_classes = [IsAdminUser]

    def post(self, request):
        request.user.first_name = request.data.get("first_name", "")
        request.user.save(update_fields=["first_name"])
        return Response({"first_name": request.user.first_name})


# Token requests carry no session: their views are exempt from the login redirect, as an API's are.
urlpatterns = [
    path("test-api/whoami/", login_not_required(WhoAmI.as_view())),
    path("test-api/rename-me/", login_not_required(RenameMe.as_view())),
    *config.urls.urlpatterns,
]
