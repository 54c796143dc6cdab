from pydantic import Field

from app.http.pagination import MAX_PER_PAGE, PerPage
from app.http.params import Params


class ChangesParams(Params):
    since: str | None = Field(
        None,
        max_length=16_384,
        description="The `next_since` of the previous answer; without it, the current token "
        "and no changes (the starting point after a full download)",
    )
    per_page: PerPage = Field(
        MAX_PER_PAGE, description=f"Changes per answer, 1 to {MAX_PER_PAGE} (see has_more)"
    )
