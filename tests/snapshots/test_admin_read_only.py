"""The rows a collection writes, in the admin: every field shown read only, none added by hand."""

import pytest
from django.contrib import admin
from django.test import RequestFactory

from apps.snapshots.models import CollectionRun, DataFile
from apps.snapshots.storage_models import DiskGroup


@pytest.mark.django_db
@pytest.mark.parametrize("model", [CollectionRun, DataFile, DiskGroup])
def test_the_admin_shows_a_collection_s_rows_read_only_and_adds_none(model, admin_user):
    model_admin = admin.site._registry[model]
    request = RequestFactory().get("/")
    request.user = admin_user

    assert set(model_admin.get_readonly_fields(request)) == {field.name for field in model._meta.fields}
    assert not model_admin.has_add_permission(request)
