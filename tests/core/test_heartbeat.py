"""The worker's heartbeat, written by a real worker node (its bootstep), read back as /healthz reads it."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings

from apps.core.heartbeat import heartbeat_key, heartbeat_read
from tests.waiting import wait_for


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
class WorkerHeartbeatTests:
    def test_a_running_worker_writes_its_heartbeat(self, celery_worker):
        client = redis.Redis.from_url(settings.REDIS_URL)
        client.delete(heartbeat_key("worker"))
        settings_every_s = settings.TIERSCOPE_HEARTBEAT_EVERY_S

        # The bootstep writes at start and then every TIERSCOPE_HEARTBEAT_EVERY_S on the worker's timer.
        wait_for(lambda: client.get(heartbeat_key("worker")) is not None, timeout_s=settings_every_s + 10,
                 what="the worker's first heartbeat")
        client.close()

        beat = heartbeat_read(process="worker", stale_after_s=settings.TIERSCOPE_HEARTBEAT_STALE_S)
        assert beat.ok, beat.detail
        assert beat.age_s is not None and beat.age_s < settings_every_s + 2
