"""The file of an upload, taken the two ways WordPress takes one: a multipart form's `file`
field, or the raw body with `Content-Type` and `Content-Disposition: attachment;
filename=...`. The client's file name only ever becomes a default title."""

from collections.abc import AsyncGenerator
from dataclasses import dataclass
from email.message import Message

from fastapi import Request
from python_multipart.multipart import parse_options_header
from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException, MultiPartParser

from app.core.errors import ApiError

FIELD = "file"
MAX_FILENAME = 255
MULTIPART = "multipart/form-data"
# Form fields that are not the file (title, alt_text, ...) are small.
MAX_FIELD_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class IncomingFile:
    data: bytes
    filename: str  # as the client named it: a title at most, never a path


def too_big(max_bytes: int) -> ApiError:
    return ApiError(413, "rest_upload_file_too_big", values={"max": max_bytes})


def attachment_name(header: str) -> str | None:
    """The file name of `Content-Disposition: attachment; filename=...` (or RFC 2231's
    `filename*=UTF-8''...`), None unless the header says attachment and names one."""
    parsed = Message()
    parsed["content-disposition"] = header
    if parsed.get_content_disposition() != "attachment":
        return None
    return parsed.get_filename() or None


def base_name(filename: str) -> str:
    """`photo` of `C:\\Users\\me\\photo.JPG` or `../../photo.jpg`."""
    name = filename.replace("\\", "/").rsplit("/", 1)[-1].strip()
    stem, dot, _ = name.rpartition(".")
    return (stem if dot and stem else name)[:MAX_FILENAME]


async def _multipart_file(request: Request, body: bytes) -> IncomingFile:
    async def stream() -> AsyncGenerator[bytes, None]:
        yield body

    # The body was read already (and the size limit applied): parsed again from memory,
    # this time keeping the file, which the parameter reader drops.
    parser = MultiPartParser(
        request.headers, stream(), max_files=1, max_fields=100, max_part_size=MAX_FIELD_BYTES
    )
    try:
        form = await parser.parse()
    except MultiPartException as exc:
        raise ApiError(400, "rest_invalid_body") from exc
    try:
        upload = form.get(FIELD)
        if not isinstance(upload, UploadFile):
            raise ApiError(400, "rest_upload_no_data")
        return IncomingFile(await upload.read(), upload.filename or "")
    finally:
        await form.close()


async def incoming_file(request: Request, max_bytes: int) -> IncomingFile:
    """The uploaded file, or the 400 or 413 that says why there is none."""
    body = await request.body()
    content_type, _ = parse_options_header(request.headers.get("content-type", ""))
    if content_type.decode("latin-1").lower() == MULTIPART:
        incoming = await _multipart_file(request, body)
    else:
        if not body:
            raise ApiError(400, "rest_upload_no_data")
        filename = attachment_name(request.headers.get("content-disposition", ""))
        if not filename:
            raise ApiError(400, "rest_upload_no_content_disposition")
        incoming = IncomingFile(body, filename)
    if not incoming.data:
        raise ApiError(400, "rest_upload_no_data")
    if len(incoming.data) > max_bytes:
        raise too_big(max_bytes)
    return incoming
