from typing import Any

from app.core.web.urls import Urls
from app.models import CATEGORY
from app.terms.repository import TermRecord

TERM_ROUTES = {CATEGORY: "categories", "post_tag": "tags"}
PUBLIC_TERM_PATHS = {CATEGORY: "category", "post_tag": "tag"}


def term_urls(term: TermRecord, urls: Urls) -> dict[str, str]:
    collection = urls.rest(f"/{TERM_ROUTES[term.taxonomy]}")
    links = {"self": f"{collection}/{term.id}", "collection": collection}
    if term.parent_id:
        links["up"] = f"{collection}/{term.parent_id}"
    return links


def term_body(term: TermRecord, urls: Urls, *, with_links: bool = False) -> dict[str, Any]:
    """The standalone term object (docs/design.md#shapes)."""
    body: dict[str, Any] = {
        "id": term.id,
        "count": term.count,
        "description": term.description,
        "name": term.name,
        "slug": term.slug,
        "taxonomy": term.taxonomy,
    }
    if term.taxonomy == CATEGORY:
        body["parent"] = term.parent_id or 0
    body["meta"] = []
    body["url"] = urls.public(f"/events/{PUBLIC_TERM_PATHS[term.taxonomy]}/{term.slug}/")
    links = term_urls(term, urls)
    body["urls"] = links
    if with_links:
        body["_links"] = {
            "self": [
                {
                    "href": links["self"],
                    "targetHints": {"allow": ["GET", "POST", "PUT", "PATCH", "DELETE"]},
                }
            ],
            "collection": [{"href": links["collection"]}],
        }
        if "up" in links:
            body["_links"]["up"] = [{"href": links["up"], "embeddable": True}]
    return body


def embedded_term_body(term: TermRecord, urls: Urls) -> dict[str, Any]:
    """A term as embedded in an event (WordPress term fields, docs/design.md#shapes)."""
    return {
        "name": term.name,
        "slug": term.slug,
        "term_group": 0,
        "term_taxonomy_id": term.id,
        "taxonomy": term.taxonomy,
        "description": term.description,
        "parent": term.parent_id or 0,
        "count": term.count,
        "filter": "raw",
        "id": term.id,
        "urls": term_urls(term, urls),
    }
