"""Who may call the API: the pages' two roles. A signed-in user reads (a viewer); only an admin (is_staff, as
apps.dashboard.access.staff_required checks) writes, and only an admin reads the audit log."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission


def is_admin(user) -> bool:
    return bool(user and user.is_authenticated and user.is_staff)


class ViewerReadAdminWrite(BasePermission):
    """Reads for any signed-in user; writes for admins."""

    message = "This needs the admin role: viewers only read."

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        return request.method in SAFE_METHODS or is_admin(request.user)


class AdminOnly(BasePermission):
    """Admins only, reads included (the audit log)."""

    message = "This needs the admin role."

    def has_permission(self, request, view) -> bool:
        return is_admin(request.user)
