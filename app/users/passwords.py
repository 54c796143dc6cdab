"""Account passwords: what a person types to sign in to the desk, stored as argon2id hashes
(argon2-cffi's defaults: RFC 9106's low-memory choice). Application passwords, for programs,
are random and keyed-hashed instead (app/users/auth.py); neither is accepted for the other.

Hashing takes tens of milliseconds of CPU by design: it runs in a thread, so the event loop
keeps serving other requests meanwhile."""

import asyncio
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_LENGTH = 8
MAX_LENGTH = 1024  # a bound on the work one sign-in can ask for

_hasher = PasswordHasher()


@cache
def _decoy() -> str:
    """Verified when the login has no account password, so that the answer takes as long
    as for a wrong password: the timing does not tell which logins can sign in. Made on
    first use, not at import (a hash costs a worker's start-up time)."""
    return _hasher.hash("almanac decoy password")


class WeakPassword(ValueError):
    """A password the desk does not take (too short or too long)."""


def check_strength(password: str) -> None:
    if len(password) < MIN_LENGTH:
        raise WeakPassword(f"an account password has at least {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        raise WeakPassword(f"an account password has at most {MAX_LENGTH} characters")


async def hash_account_password(password: str) -> str:
    check_strength(password)
    return await asyncio.to_thread(_hasher.hash, password)


def _verify(stored: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored or _decoy(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


async def verify_account_password(stored: str | None, password: str) -> bool:
    """Whether `password` matches the stored hash (None: the user has no account password,
    which never matches, after the same work)."""
    if len(password) > MAX_LENGTH:
        return False
    return await asyncio.to_thread(_verify, stored, password)
