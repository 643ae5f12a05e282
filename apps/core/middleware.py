"""Who may send a request body, and how big, decided before a byte of it is read.

CsrfViewMiddleware reads ``request.POST`` in process_view, which parses a multipart body (spooling files
to disk) before LoginRequiredMiddleware or any view can refuse the client. This middleware sits between
AuthenticationMiddleware and CsrfViewMiddleware and answers from the headers alone:

* anonymous: only views marked ``login_not_required`` (the login forms) take a body, of at most
  ANONYMOUS_MAX_BODY_BYTES; anything else is 403 and the body is never read;
* signed in, not staff: forms only, at most FORM_MAX_BODY_BYTES (uploads are admin-only: 403 past it);
* staff: at most the two files of the import page (2 x MAX_UPLOAD_BYTES) plus the form around them.

A body without Content-Length (Transfer-Encoding: chunked) is read as empty by Django's WSGI handler
(``LimitedStream`` of length 0), so it is never read past a buffer either; it still counts as a body here.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.template.defaultfilters import filesizeformat
from django.urls import Resolver404, resolve

from apps.core.config import get_config
from apps.core.dbrouter import replica_configured, replica_reads

# The multipart envelope around the import page's files (boundaries, headers, the CSRF token).
_FORM_ENVELOPE_BYTES = 1024 * 1024


def body_length(request: HttpRequest) -> int | None:
    """Declared body length in bytes: 0 for none, None when the client streams it without a length."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared <= 0 and request.META.get("HTTP_TRANSFER_ENCODING"):
        return None
    return max(declared, 0)


def body_user(request: HttpRequest):
    """Who sends the body: the session's user, else the user of a valid API key
    (``request.bearer_user``, set by apps.apitokens.middleware.BearerUserMiddleware), else anonymous."""
    if request.user.is_authenticated:
        return request.user
    return getattr(request, "bearer_user", None) or request.user


def body_limit(request: HttpRequest) -> int:
    """The largest body this client may send, from its role."""
    config = get_config()
    user = body_user(request)
    if not user.is_authenticated:
        return config["ANONYMOUS_MAX_BODY_BYTES"]
    if not user.is_staff:
        return config["FORM_MAX_BODY_BYTES"]
    return 2 * config["MAX_UPLOAD_BYTES"] + _FORM_ENVELOPE_BYTES


def _login_not_required(request: HttpRequest) -> bool:
    try:
        view = resolve(request.path_info).func
    except Resolver404:
        return False
    return getattr(view, "login_required", True) is False


class RequestBodyGuardMiddleware:
    """Refuse a body the client may not send (see the module docstring) without reading it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = body_length(request)
        if length == 0:
            return self.get_response(request)
        user = body_user(request)
        if not user.is_authenticated and not _login_not_required(request):
            return HttpResponseForbidden("Log in first: this request has a body and you are not logged in.\n",
                                         content_type="text/plain")
        limit = body_limit(request)
        if length is not None and length > limit and user.is_authenticated and not user.is_staff:
            return HttpResponseForbidden(
                f"Only admins upload files: this request's body is {filesizeformat(length)}, more than the "
                f"{filesizeformat(limit)} a form takes.\n", content_type="text/plain",
            )
        if length is not None and length > limit:
            return HttpResponse(
                f"The request body is {filesizeformat(length)}, more than the {filesizeformat(limit)} allowed here.\n",
                status=413, content_type="text/plain",
            )
        return self.get_response(request)



# Never from the standby: the admin and the login pages read what they just wrote; /healthz reads the primary.
_PRIMARY_ONLY_PREFIXES = ("/admin/", "/accounts/", "/healthz")


class ReplicaReadsMiddleware:
    """Page and API reads of a GET or HEAD request may go to the hot standby (apps.core.dbrouter); every other
    request, and everything outside a request, reads the primary."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (request.method not in ("GET", "HEAD") or not replica_configured()
                or request.path_info.startswith(_PRIMARY_ONLY_PREFIXES)):
            return self.get_response(request)
        with replica_reads():
            return self.get_response(request)
