from allauth.socialaccount import views as social_views
from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path

from apps.core import sso_views
from apps.core.views import healthz

# django.contrib.auth.urls without the password-reset pages: they send mail, so they exist only when
# mail is set up (PASSWORD_RESET_ENABLED, on by default when EMAIL_HOST is set).
accounts = [
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
]
if settings.PASSWORD_RESET_ENABLED:
    accounts += [
        path("password_reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
        path("password_reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
        path("reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
             name="password_reset_confirm"),
        path("reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    ]

# Single sign-on (docs/sso.md), only when OpenID Connect providers are configured: allauth's pages at
# /accounts/oidc/<id>/login/ and /accounts/oidc/<id>/login/callback/ (the redirect URI to register with the
# provider), and its two error pages. None of allauth's local account pages (sign-up, its own login form,
# e-mail) are served: the names allauth redirects to are our pages.
if settings.TIERSCOPE_OIDC:
    accounts += [
        path("oidc/<str:provider_id>/login/", sso_views.login, name="openid_connect_login"),
        path("oidc/<str:provider_id>/login/callback/", sso_views.callback, name="openid_connect_callback"),
        path("sso/cancelled/", social_views.login_cancelled, name="socialaccount_login_cancelled"),
        # Shown to someone whose sign-in failed, so not logged in (allauth leaves this one behind login).
        path("sso/error/", login_not_required(social_views.login_error), name="socialaccount_login_error"),
        path("sso/error/", login_not_required(social_views.login_error), name="socialaccount_signup"),
        path("login/", auth_views.LoginView.as_view(), name="account_login"),
        path("login/", auth_views.LoginView.as_view(), name="account_inactive"),
        path("logout/", auth_views.LogoutView.as_view(), name="account_logout"),
    ]

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("", include("apps.metrics.urls")),
    path("admin/", admin.site.urls),
    path("accounts/api-tokens/", include("apps.apitokens.urls")),
    path("accounts/", include(accounts)),
    path("", include("apps.targets.urls")),
    path("", include("apps.snapshots.urls")),
    path("", include("apps.dashboard.urls")),
    path("", include("apps.dashboard.plans.urls")),
    path("", include("apps.dashboard.calibration.urls")),
    path("", include("apps.api.urls")),  # /api/v1/, /api/schema/, /api/docs/ (docs/api.md)
]
