"""How the seeder cuts its events into chunks: a small first one (planned for empty tables),
then full ones (planned for the tables' real size after the statistics in between)."""

import pytest

from app.seed.seeder import CHUNK, FIRST_CHUNK, chunk_starts


@pytest.mark.parametrize(
    ("total", "starts"),
    [
        (0, []),
        (1, [0]),
        (FIRST_CHUNK, [0]),
        (FIRST_CHUNK + 1, [0, FIRST_CHUNK]),
        (FIRST_CHUNK + CHUNK, [0, FIRST_CHUNK]),
        (FIRST_CHUNK + CHUNK + 1, [0, FIRST_CHUNK, FIRST_CHUNK + CHUNK]),
    ],
)
def test_chunks(total: int, starts: list[int]) -> None:
    assert chunk_starts(total) == starts


def test_every_event_is_in_one_chunk() -> None:
    total = 3 * CHUNK + 17
    starts = chunk_starts(total)
    sizes = [end - start for start, end in zip(starts, [*starts[1:], total], strict=True)]
    assert sum(sizes) == total
    assert sizes[0] == FIRST_CHUNK
    assert max(sizes) == CHUNK
