"""Storing an upload: checked, re-encoded and sized (app/media/processing.py), its files
written, then its row. Callable from anywhere with a repository (the routes, the importer,
later the editor's desk), not only from the router.

Nothing stays of a failed upload: the files are written first (each whole or not at all,
app/media/storage.py), then the row in the caller's transaction; if writing a file or the
row fails, the files this upload wrote are removed again. Files another upload of the same
bytes wrote before stay: they are that upload's too. What a crash between the file writes
and the commit leaves behind, no row names: `almanac media prune` removes it.
"""

import asyncio
import logging
from dataclasses import dataclass

from app.core.errors import ApiError
from app.media.processing import FULL, BadImage, Processed, process
from app.media.repository import MediaRepository, NewMedia
from app.media.storage import MediaStorage

log = logging.getLogger("almanac.media")


@dataclass(frozen=True, slots=True)
class UploadTexts:
    """Title, alternative text and caption, each by language."""

    title: dict[str, str]
    alt: dict[str, str]
    caption: dict[str, str]


def refused(exc: BadImage) -> ApiError:
    reason = (exc.key, exc.values)
    return ApiError(400, "rest_upload_invalid_image", values={"reason": reason})


def stored_sizes(processed: Processed) -> dict[str, object]:
    """The `sizes` column: each size's dimensions, type, size in bytes and file, with its
    WebP variant under `sources` (as WordPress's WebP uploads record them)."""
    sizes: dict[str, object] = {}
    # `full` last, as WordPress lists it.
    names = [name for name in processed.renditions if name != FULL] + [FULL]
    for name in names:
        rendition = processed.renditions[name]
        entry: dict[str, object] = {
            "width": rendition.width,
            "height": rendition.height,
            "mime-type": rendition.mime_type,
            "filesize": len(rendition.data),
            "file": processed.file_name(name, rendition),
        }
        webp = processed.webp.get(name)
        if webp is not None:
            entry["sources"] = {
                webp.mime_type: {
                    "file": processed.file_name(name, webp),
                    "filesize": len(webp.data),
                }
            }
        sizes[name] = entry
    return sizes


class Uploads:
    def __init__(
        self,
        repo: MediaRepository,
        storage: MediaStorage,
        max_pixels: int,
        slots: asyncio.Semaphore | None = None,
    ) -> None:
        self.repo = repo
        self.storage = storage
        self.max_pixels = max_pixels
        # The app's: how many images a worker decodes at once (each may take hundreds of
        # MB at MAX_IMAGE_PIXELS); more uploads wait their turn.
        self.slots = slots or asyncio.Semaphore(1)

    async def store(
        self,
        data: bytes,
        texts: UploadTexts,
        *,
        author_id: int | None,
        post_id: int | None = None,
        source_url: str | None = None,
    ) -> int:
        """The new image's ID; 400 when the bytes are refused, 500 when storing fails."""
        try:
            # Decoding and encoding are CPU work: off the event loop.
            async with self.slots:
                processed = await asyncio.to_thread(process, data, self.max_pixels)
        except BadImage as exc:
            raise refused(exc) from None
        files = [
            (processed.file_name(name, rendition), rendition.data)
            for versions in (processed.renditions, processed.webp)
            for name, rendition in versions.items()
        ]
        full = processed.full
        written: list[str] = []
        try:
            for name, blob in files:
                if await asyncio.to_thread(self.storage.save, name, blob):
                    written.append(name)
            return await self.repo.insert(
                NewMedia(
                    file=processed.file_name(FULL, full),
                    mime_type=full.mime_type,
                    extension=full.extension,
                    width=full.width,
                    height=full.height,
                    filesize=len(full.data),
                    sizes=stored_sizes(processed),
                    title=texts.title,
                    alt=texts.alt,
                    caption=texts.caption,
                    author_id=author_id,
                    post_id=post_id,
                    source_url=source_url,
                )
            )
        except BaseException as exc:
            for name in written:
                await asyncio.to_thread(self.storage.delete, name)
            if isinstance(exc, OSError):
                log.error("upload not stored: %s", exc)
                raise ApiError(500, "rest_upload_not_stored") from exc
            raise
