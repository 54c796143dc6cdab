"""`almanac import --copy-images`: every image the imported records show by URL is
downloaded once into the media library (app/media/), and the records show the copy.

A copy remembers the address it came from (`images.source_url`): a re-run downloads
nothing it copied before, and a record the source still shows the old address for (an
update of the record) is pointed at the copy again. Each image is copied and linked in a
transaction of its own; a failure (unreachable, not an image, too large) is reported in the
summary and the run goes on.

Images are fetched without the credentials, from the source's own origin or from public
addresses only, redirects included (app/importer/guard.py); any other is refused with one
neutral reason and never connected to.
"""

import posixpath
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import httpx

from app.core.database.engine import SessionMaker
from app.core.errors import ApiError
from app.i18n import API_MESSAGES
from app.importer.client import SourceClient
from app.importer.guard import NotPublic
from app.importer.repository import ImportRepository
from app.importer.summary import ImageCounts
from app.media.incoming import base_name
from app.media.repository import MediaRepository
from app.media.storage import MediaStorage
from app.media.uploads import Uploads, UploadTexts
from app.posts.images import is_http_url


class CopyFailed(Exception):
    pass


@dataclass(frozen=True, slots=True)
class CopyLimits:
    max_bytes: int
    max_pixels: int


class ImageCopier:
    def __init__(
        self,
        maker: SessionMaker,
        client: SourceClient,
        storage: MediaStorage,
        limits: CopyLimits,
        *,
        source: str,
        owner_id: int | None,
        language: str,
    ) -> None:
        self.maker = maker
        self.client = client
        self.storage = storage
        self.limits = limits
        self.source = source
        self.owner_id = owner_id
        self.language = language
        self.counts = ImageCounts()

    async def run(self) -> ImageCounts:
        async with self.maker() as session:
            external = await ImportRepository(session, self.source).external_images()
            copies = await MediaRepository(session).by_source([url for _, url in external])
        for image_id, url in external:
            async with self.maker() as session:
                try:
                    async with session.begin():
                        media = MediaRepository(session)
                        copy_id = copies.get(url)
                        if copy_id is None:
                            copy_id = await self._copy(media, url)
                            copies[url] = copy_id
                            self.counts.copied += 1
                        else:
                            self.counts.reused += 1
                        await media.show_copy(image_id, copy_id)
                except CopyFailed as exc:
                    self.counts.failed.append((url, str(exc)))
                except ApiError as exc:
                    why = API_MESSAGES.text(exc.key, "en", **exc.values)
                    self.counts.failed.append((url, why))
        return self.counts

    async def _copy(self, media: MediaRepository, url: str) -> int:
        data = await self._download(url)
        name = base_name(posixpath.basename(unquote(urlsplit(url).path)))
        texts = UploadTexts(title={self.language: name} if name else {}, alt={}, caption={})
        uploads = Uploads(media, self.storage, self.limits.max_pixels)
        return await uploads.store(data, texts, author_id=self.owner_id, source_url=url)

    async def _download(self, url: str) -> bytes:
        """The file at `url`, within the byte limit. No credentials: the source's are for
        the source, and images may live on another host."""
        if not is_http_url(url):
            raise CopyFailed("not an http(s) URL")
        limit = self.limits.max_bytes
        try:
            async with self.client.open(url, {"Accept": "image/*"}) as response:
                if response.status_code != 200:
                    raise CopyFailed(f"answered {response.status_code}")
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > limit:
                    raise CopyFailed(f"larger than {limit} bytes")
                data = bytearray()
                async for chunk in response.aiter_bytes():
                    data.extend(chunk)
                    if len(data) > limit:
                        raise CopyFailed(f"larger than {limit} bytes")
                return bytes(data)
        except NotPublic as exc:
            raise CopyFailed(str(exc)) from None
        except httpx.HTTPError as exc:
            raise CopyFailed(f"could not download ({exc.__class__.__name__})") from None
