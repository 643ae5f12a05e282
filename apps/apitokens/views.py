"""The API tokens page of the signed-in user (any role): list, create (the key shown once), revoke."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from apps.apitokens import selectors
from apps.apitokens.forms import TokenCreateForm
from apps.apitokens.models import ApiToken
from apps.apitokens.services import token_create, token_revoke


def _list(request: HttpRequest, form: TokenCreateForm, *, status: int = 200) -> HttpResponse:
    now = timezone.now()
    rows = [(token, token.state(now)) for token in selectors.token_list(user=request.user)]
    return render(request, "apitokens/list.html", {"rows": rows, "form": form}, status=status)


@require_GET
def token_list(request: HttpRequest) -> HttpResponse:
    return _list(request, TokenCreateForm())


@require_POST
@never_cache  # the key is in this page: no copy of it in a browser's or proxy's cache
def token_new(request: HttpRequest) -> HttpResponse:
    form = TokenCreateForm(request.POST)
    if not form.is_valid():
        return _list(request, form, status=400)
    try:
        created = token_create(user=request.user, name=form.cleaned_data["name"],
                               expires_days=form.cleaned_data["expires_days"], now=timezone.now())
    except ValidationError as exc:
        form.add_error(None, exc)
        return _list(request, form, status=400)
    return render(request, "apitokens/created.html", {"token": created.token, "key": created.key,
                                                       "api_url": request.build_absolute_uri("/api/v1/targets/")})


@require_POST
def token_revoke_view(request: HttpRequest, token_id: int) -> HttpResponse:
    # Another user's token is not found: its id says nothing to this user.
    token = get_object_or_404(ApiToken, pk=token_id, user=request.user)
    if token_revoke(token=token, now=timezone.now()):
        messages.success(request, f"Revoked API token {token.name!r} (tsk_{token.prefix}_…): it is refused from now on.")
    else:
        messages.info(request, f"API token {token.name!r} was revoked already.")
    return redirect("apitokens:list")
