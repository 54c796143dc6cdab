from typing import Any

from pydantic import Field

from app.http.schemas import ImageOrFalse, Schema

# Redacted (password-protected) objects replace a name by [] and flags by null.
Name = str | list[Any]
Flag = bool | None


class PostHead(Schema):
    id: int
    author: str = Field(description="Author user ID as a string")
    status: str
    date: str = Field(description="Publication date, site time, Y-m-d H:i:s")
    date_utc: str
    modified: str
    modified_utc: str
    url: str = Field(description="Public page")
    description: str
    excerpt: str
    slug: str
    image: ImageOrFalse
    global_id: str
    global_id_lineage: list[str]
    json_ld: dict[str, Any] | None = Field(None, description="schema.org data (single reads)")
