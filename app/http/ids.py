"""Record IDs in paths: `{name:id}` takes a number from 0 to MAX_ID (leading zeros allowed).

A number past MAX_ID names no record, and past 64 bits it is no value of the bigint column
at all (the database refused it: a 500). The path's pattern itself leaves those out, so such
a path matches no route and is the 404 of any path no route takes, on every route with an
ID, before anything reads the number. Registered when app.http is imported (its
`__init__`), before any router compiles a path."""

from starlette.convertors import Convertor, register_url_convertor

from app.core.rules.constants import MAX_ID


def up_to(limit: int) -> str:
    """A regular expression for the decimal numbers from 0 to `limit`, leading zeros allowed:
    fewer digits than `limit`, or as many and below it from some digit on, or `limit`."""
    digits = str(limit)
    branches = [f"[0-9]{{1,{len(digits) - 1}}}"] if len(digits) > 1 else []
    for position, digit in enumerate(digits):
        lowest = 1 if position == 0 and len(digits) > 1 else 0  # 0... is a shorter number
        if int(digit) > lowest:
            rest = len(digits) - position - 1
            tail = f"[0-9]{{{rest}}}" if rest else ""
            branches.append(f"{digits[:position]}[{lowest}-{int(digit) - 1}]{tail}")
    branches.append(digits)
    return f"0*(?:{'|'.join(branches)})"


class IdConvertor(Convertor[int]):
    regex = up_to(MAX_ID)

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(int(value))


register_url_convertor("id", IdConvertor())
