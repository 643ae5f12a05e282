"""Pages show a move's payback (issue 16, item 1): days on the recommendations table, the one-off cost, duration
and terms on the segment page, and "not worth moving" with its figures."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client

from apps.snapshots.models import Segment
from apps.tiering.models import TierSet
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import NOW
from tests.tiering.stored_targets import COLD, HOT


def _row(body: str, name: str) -> str:
    match = re.search(rf'<tr data-segment-id="\d+">\s*<td><a [^>]*><span class="ident">APP\.{name}.*?</tr>', body, re.S)
    assert match, name
    return match.group(0)


@pytest.mark.django_db
class PaybackPageTests:
    def test_the_recommendations_table_gives_each_move_its_payback_days(self, refresh_target, viewer_client):
        TierSet.objects.filter(name="seed-2009").update(move_cost_usd=Decimal("10"))
        recommendation_refresh(target_id=refresh_target.id, now=NOW)

        body = viewer_client.get(f"/targets/{refresh_target.name}/recommendations/").content.decode()

        assert "Payback</th>" in body
        assert 'data-col="payback">6 days</td>' in _row(body, COLD.object_name)  # $10 over $49.58/month
        hot = _row(body, "Hot Orders")
        assert "not worth moving" in hot and 'data-col="payback">96 days</td>' in hot

    def test_with_no_move_cost_the_table_leaves_payback_out_and_says_why_once(self, refresh_target, viewer_client,
                                                                              admin_user):
        recommendation_refresh(target_id=refresh_target.id, now=NOW)  # seed-2009: $0 a move, owned devices

        for path in (f"/targets/{refresh_target.name}/recommendations/", f"/targets/{refresh_target.name}/"):
            body = viewer_client.get(path).content.decode()
            assert "Payback</th>" not in body and 'data-col="payback"' not in body and "no move cost set" not in body
            note = re.search(r'<p class="hidden-note" id="payback-hidden">(.*?)</p>', body, re.S).group(1)
            assert note.startswith("No Payback column: seed-2009 sets no cost per move, and no move here costs "
                                   "anything in IO, so no move has a one-off cost to repay.")
            assert "An admin can set a DBA's cost per move" in note
        admin_client = Client()  # the fixture's client is the viewer's: one client, one login
        admin_client.force_login(admin_user)
        admin = admin_client.get(f"/targets/{refresh_target.name}/recommendations/").content.decode()
        assert '<a href="/admin/tiering/tierset/seed-2009/change/">Set a DBA\'s cost per move</a>' in admin

    def test_the_table_keeps_payback_for_figures_stored_before_it_was_counted(self, refresh_target):
        from apps.dashboard.recommendations.table import payback_shown

        assert refresh_target.tier_set.move_cost_usd == 0
        assert payback_shown(refresh_target, {"count": 3}) is True  # not counted is not "none"
        assert payback_shown(refresh_target, {"count": 3, "repaying": 0}) is False
        assert payback_shown(refresh_target, {"count": 3, "repaying": 1}) is True

    def test_the_segment_page_gives_the_one_off_cost_duration_and_terms(self, refresh_target, viewer_client):
        recommendation_refresh(target_id=refresh_target.id, now=NOW)
        segment = Segment.objects.get(target=refresh_target, object_name=HOT.object_name)

        body = viewer_client.get(f"/targets/{refresh_target.name}/segments/{segment.id}/").content.decode()

        kpi = re.search(r'<div class="kpi" id="kpi-payback">.*?</div></div>', body, re.S).group(0)
        # No move cost on the set: said so, never "0 days" (nothing to repay is not an instant payback).
        assert "no move cost set" in kpi and "0 days" not in kpi
        assert (f"no move cost set on {refresh_target.tier_set} (its move cost is $0): a move of about 1 min 12 s, "
                "2.00 GB of redo; horizon 3 months, minimum $1.00/month") in kpi
        assert "The move saves $3.17/month; no move cost is set, so there is nothing to pay back" in body
        assert "$0.00 move" not in body
