"""allauth's admin pages, trimmed to what single sign-on uses (docs/sso.md).

Providers are configured from the environment, not in the database (SocialApp), tokens are not stored
(SocialToken), and no one signs in by e-mail (EmailAddress): only the list of users each provider signed
in (SocialAccount) stays, for an admin to see who came from where.
"""

from allauth.account.models import EmailAddress
from allauth.socialaccount.models import SocialApp, SocialToken
from django.contrib import admin

for model in (EmailAddress, SocialApp, SocialToken):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
