"""The API's doors of the term, media and webhook services: what they cannot read is kept
in the typed input, refused by the service in its turn (app/core/web/refusals.py). Pure:
no database, no HTTP."""

import pytest

from app.core.errors import InvalidParams, MissingParams
from app.core.web.refusals import Refused
from app.media.door import media_query, media_removal, media_upload
from app.terms.door import term_query, term_write
from app.terms.service import CATEGORIES, TAGS
from app.webhooks.door import delivery_query, webhook_create


def test_a_missing_required_parameter_is_refused_later_not_raised() -> None:
    write = webhook_create({"description": "x"})
    assert write.url is None
    with pytest.raises(MissingParams) as raised:
        write.refused.raise_any()
    assert raised.value.names == ["url"]


def test_a_tag_refuses_any_parent_a_category_reads_one() -> None:
    assert isinstance(term_write(TAGS, {"parent": "abc"}).parent, Refused)
    assert term_write(TAGS, {"name": "jazz"}).parent is None
    assert term_write(CATEGORIES, {"parent": " 7 "}).parent == 7
    assert "parent" in term_write(CATEGORIES, {"parent": "-1"}).refused


def test_a_term_list_names_the_parameter_of_its_event_and_echoes_its_filters() -> None:
    query, echoed = term_query(CATEGORIES, {"post": "5", "hide_empty": "0", "order": "DESC"})
    assert (query.event, query.event_parameter) == (5, "post")
    assert (query.hide_empty, query.descending) == (False, True)
    assert echoed == {"post": 5, "hide_empty": False, "order": "desc"}
    with pytest.raises(InvalidParams):
        term_query(TAGS, {"include": "x"})  # a list checks nothing before: at once


def test_media_inputs() -> None:
    query, _ = media_query({"mime_type": "image/png", "author": "x"})
    assert query.mime_types == ["image/png"]
    assert "author" in query.refused
    upload = media_upload({"post": "12", "alt_text": "A hall"})
    assert (upload.post, upload.texts()) == (12, {"alt_text": "A hall"})
    assert media_removal({"force": "true"}).force is True
    assert delivery_query({"status": "nope"}).refused.notes["status"][0] == "not_one_of"
