"""A viewer's target, recommendations and segment pages are rendered once per state of what they show
(apps.dashboard.page_cache): read back while nothing changed, rendered again after any write they show."""

from __future__ import annotations

import logging
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.dashboard.page_cache import CSRF_PLACEHOLDER
from apps.snapshots.models import Segment
from apps.targets.models import StorageLocation, TablespaceTier
from apps.tiering.models import Tier


def _view(client, url: str) -> tuple[str, list[str]]:
    """The page (its CSRF tokens, masked afresh for every response, left out) and the queries it made."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())
    return html, [query["sql"] for query in queries.captured_queries]


def _reads_recommendations(queries: list[str]) -> bool:
    return any('FROM "tiering_recommendation"' in sql for sql in queries)


def _pages(target) -> list[str]:
    segment = Segment.objects.filter(target=target).order_by("id").first()
    return [f"/targets/{target.name}/", f"/targets/{target.name}/recommendations/",
            f"/targets/{target.name}/segments/{segment.id}/"]


class PageCacheTests:
    def test_it_serves_a_viewers_second_view_without_reading_the_body_again(self, viewer_client, collected):
        for url in _pages(collected):
            first, first_queries = _view(viewer_client, url)
            second, second_queries = _view(viewer_client, url)
            assert second == first, url
            assert _reads_recommendations(first_queries) and not _reads_recommendations(second_queries), url

    def test_it_keeps_a_body_per_query(self, viewer_client, collected):
        url = f"/targets/{collected.name}/recommendations/"
        _view(viewer_client, url)
        sorted_by_name, _ = _view(viewer_client, url + "?sort=name")
        again, _ = _view(viewer_client, url)
        assert sorted_by_name != again

    def test_it_keeps_an_admins_page_apart_from_a_viewers(self, admin_client, viewer, collected):
        url = f"/targets/{collected.name}/"
        first, _ = _view(admin_client, url)
        second, second_queries = _view(admin_client, url)
        assert second == first and not _reads_recommendations(second_queries)
        assert 'id="storage-declare"' in first  # the storage map's forms are an admin's
        viewer_client = Client()
        viewer_client.force_login(viewer)
        assert 'id="storage-declare"' not in _view(viewer_client, url)[0]

    def test_it_gives_a_kept_admins_form_the_csrf_token_of_the_session_it_is_served_to(self, admin_user, other_admin,
                                                                                      collected):
        url = f"/targets/{collected.name}/"
        for user in (admin_user, other_admin):  # the second admin's body is the first's, kept
            client = Client(enforce_csrf_checks=True)
            client.force_login(user)
            page = client.get(url).content.decode()
            token = re.search(r'id="storage-declare">.*?name="csrfmiddlewaretoken" value="([^"]+)"', page, re.S)
            assert token and CSRF_PLACEHOLDER not in page
            response = client.post(f"/targets/{collected.name}/storage-map/", {
                "csrfmiddlewaretoken": token.group(1), "location": f"/u0{user.id}"})
            assert response.status_code == 302, (user.username, response.status_code)
        assert StorageLocation.objects.filter(target=collected, name=f"/u0{other_admin.id}").exists()

    @pytest.mark.parametrize("write", ["tier renamed", "tablespace unmapped", "storage location declared",
                                       "block size learnt", "collected again"])
    def test_it_renders_again_after_a_write_the_page_shows(self, viewer_client, collected, collect, write):
        url = f"/targets/{collected.name}/"
        before, _ = _view(viewer_client, url)
        _view(viewer_client, url)  # now from the cache
        if write == "tier renamed":
            tier = Tier.objects.get(tier_set=collected.tier_set_id, name="flash")
            tier.name = "nvme flash"
            tier.save()
            shown = "nvme flash"
        elif write == "tablespace unmapped":
            TablespaceTier.objects.filter(target=collected).order_by("tablespace_name").first().delete()
            shown = None  # its room row and storage map say "not mapped"
        elif write == "storage location declared":
            StorageLocation.objects.create(target=collected, name="/u42", kind=StorageLocation.Kind.MOUNT)
            shown = "/u42"
        elif write == "block size learnt":
            collected.capabilities = {**collected.capabilities, "block_size_bytes": 32768}
            collected.save(update_fields=["capabilities"])
            shown = "32768-byte blocks"
        else:
            collect(collected, trigger="manual")
            shown = None
        after, _ = _view(viewer_client, url)
        assert after != before, write
        if shown is not None:
            assert (shown in after) != (shown in before), write

    def test_it_renders_every_time_when_turned_off(self, viewer_client, collected, settings):
        settings.PAGE_CACHE_SECONDS = 0
        url = f"/targets/{collected.name}/"
        _view(viewer_client, url)
        _, second_queries = _view(viewer_client, url)
        assert _reads_recommendations(second_queries)

    def test_it_serves_the_page_when_the_cache_does_not_answer(self, viewer_client, collected, settings, caplog):
        from apps.dashboard import page_cache

        page_cache._warned = False
        settings.CACHES = {**settings.CACHES, "pages": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:9/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
        with caplog.at_level(logging.WARNING, logger="apps.dashboard.page_cache"):
            page, _ = _view(viewer_client, f"/targets/{collected.name}/")
        assert 'id="segments"' in page
        assert "page cache not answering" in caplog.text
