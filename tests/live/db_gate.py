"""A TCP gate between a server under test and the test PostgreSQL, to put the database's
faults in front of a real server on demand: passing connections through, or cutting them all
and answering new ones as a restarting or full server does (PostgreSQL's own errors, by their
SQLSTATE), or refusing connections.

    async with DatabaseGate(url) as gate:     # gate.url: the database through the gate
        ...                                   # serve with DATABASE_URL=gate.url
        await gate.fail("57P03")              # "the database system is starting up"
        await gate.refuse()                   # connection refused
        await gate.open()                     # pass through again
"""

import asyncio
import contextlib
import struct
from types import TracebackType
from typing import Self

from sqlalchemy.engine import make_url

SSL_REQUEST = 80877103
GSS_REQUEST = 80877104
MESSAGES = {
    "57P03": "the database system is starting up",
    "53300": "sorry, too many clients already",
    "57P01": "terminating connection due to administrator command",
}


def error_response(sqlstate: str) -> bytes:
    """A FATAL ErrorResponse message of the PostgreSQL protocol."""
    fields = b"".join(
        code + text.encode() + b"\0"
        for code, text in ((b"S", "FATAL"), (b"V", "FATAL"), (b"C", sqlstate),
                           (b"M", MESSAGES[sqlstate]))
    ) + b"\0"  # fmt: skip
    return b"E" + struct.pack("!I", len(fields) + 4) + fields


class DatabaseGate:
    def __init__(self, database_url: str) -> None:
        self.target = make_url(database_url)
        self.url = ""
        self._server: asyncio.Server | None = None
        self._port = 0
        self._fault: str | None = None  # a SQLSTATE to answer new connections with
        self._open: set[asyncio.StreamWriter] = set()

    async def __aenter__(self) -> Self:
        await self._listen()
        self.url = self.target.set(host="127.0.0.1", port=self._port, query={}).render_as_string(
            hide_password=False
        )
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self._stop_listening()
        self._cut()

    async def open(self) -> None:
        self._fault = None
        if self._server is None:
            await self._listen()

    async def fail(self, sqlstate: str) -> None:
        """Cut every connection; new ones are answered with this error."""
        self._fault = sqlstate
        if self._server is None:
            await self._listen()
        self._cut()

    async def refuse(self) -> None:
        """Cut every connection and stop listening: new ones are refused."""
        await self._stop_listening()
        self._cut()

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self._port)
        self._port = self._server.sockets[0].getsockname()[1]

    async def _stop_listening(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None

    def _cut(self) -> None:
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()

    async def _connect_target(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        socket_dir = self.target.query.get("host")
        port = self.target.port or 5432
        if socket_dir:
            return await asyncio.open_unix_connection(f"{socket_dir}/.s.PGSQL.{port}")
        return await asyncio.open_connection(self.target.host, port)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._open.add(writer)
        try:
            if self._fault is not None:
                await self._refuse_with(self._fault, reader, writer)
            else:
                await self._pass_through(reader, writer)
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            self._open.discard(writer)
            writer.transport.abort()

    async def _refuse_with(
        self, sqlstate: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        while True:  # SSL or GSS requests first (declined), then the startup message
            (length,) = struct.unpack("!I", await reader.readexactly(4))
            body = await reader.readexactly(length - 4)
            if struct.unpack("!I", body[:4])[0] in (SSL_REQUEST, GSS_REQUEST):
                writer.write(b"N")
                continue
            writer.write(error_response(sqlstate))
            await writer.drain()
            return

    async def _pass_through(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        upstream_reader, upstream = await self._connect_target()
        self._open.add(upstream)

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.transport.abort()

        try:
            await asyncio.gather(pump(reader, upstream), pump(upstream_reader, writer))
        finally:
            self._open.discard(upstream)
            upstream.transport.abort()
