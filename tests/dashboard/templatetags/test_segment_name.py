"""A segment's name in a table cell (the ``segment_name`` tag): what tells rows of one table apart gets a line of
its own, the whole name stays in ``title``, and a cell links to the segment only when it is known."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template import Context, Template

pytestmark = pytest.mark.django_db  # reversing a URL reads no table, but the URLconf imports models

CELL = Template("{% load tierscope %}{% for seg in segs %}<td>{% segment_name seg target seg_id %}</td>{% endfor %}")


def _seg(**fields) -> SimpleNamespace:
    return SimpleNamespace(**{"container": "", "owner": "SOE", "object_name": "ORDERS", "object_type": "TABLE",
                              "parent_partition": "", "subobject_name": "", "partitioned_parent": "",
                              "lob_column": "", **fields})


def _render(*segs, target: str = "", seg_id: int | None = None) -> str:
    return CELL.render(Context({"segs": segs, "target": target, "seg_id": seg_id}))


def test_a_subpartition_names_its_partition_and_itself_on_a_line_of_their_own():
    html = _render(_seg(object_name="ORDER_LINES", object_type="TABLE SUBPARTITION", parent_partition="P2026_08",
                        subobject_name="P2026_08_H4"), target="demo", seg_id=7)

    assert html == ('<td><a class="seg-name" href="/targets/demo/segments/7/" title="SOE.ORDER_LINES.P2026_08.'
                    'P2026_08_H4"><span class="ident">SOE.ORDER_LINES</span><span class="ident muted" '
                    'data-role="partition">P2026_08.P2026_08_H4</span></a></td>')


def test_a_lob_names_the_table_and_column_it_stores():
    html = _render(_seg(object_name="SYS_LOB0000087654C00003$$", object_type="LOBSEGMENT",
                        partitioned_parent="ORDER_DOCS", lob_column="DOC_BODY"))

    assert '<span class="ident muted" data-role="lob-of">ORDER_DOCS.DOC_BODY</span>' in html
    assert 'title="SOE.SYS_LOB0000087654C00003$$"' in html


@pytest.mark.parametrize("object_type", ["LOBINDEX", "LOB INDEX"])  # as movability.LOB_INDEX_TYPES spells it
def test_a_lob_index_names_the_table_and_column_its_lob_stores(object_type):
    html = _render(_seg(object_name="SYS_IL0000087654C00003$$", object_type=object_type,
                        partitioned_parent="ORDER_DOCS", lob_column="DOC_BODY"))

    assert '<span class="ident muted" data-role="lob-of">ORDER_DOCS.DOC_BODY</span>' in html


def test_a_table_has_one_line_and_a_container_prefix():
    html = _render(_seg(container="PDB1"))

    assert html == ('<td><span class="seg-name" title="PDB1:SOE.ORDERS"><span class="ident">'
                    '<span class="muted">PDB1:</span>SOE.ORDERS</span></span></td>')


def test_a_step_whose_segment_is_gone_links_nowhere_even_after_one_that_links():
    html = _render(_seg(subobject_name="P1"), _seg(subobject_name="P2"), target="demo", seg_id=None)

    assert "href" not in html and html.count('<span class="seg-name"') == 2
