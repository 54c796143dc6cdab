"""The desk's sign-in, sessions and security rules, through HTTP (app/desk/, app/users/):
account passwords versus application passwords, the throttle, the cookie's flags, the
headers of every desk response, CSRF and cross-site posts, idle and absolute expiry,
revocation, the desk cookie on API and page reads (never on writes), and `next=`."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import FastAPI
from httpx import AsyncClient, Response
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.users.sessions import COOKIE
from tests.desk_support import DeskUser, DeskUserFactory, csrf_token, desk_login, sign_in
from tests.factories import API, asgi_client, basic, make_event

SCRIPT_NONCES = re.compile(r'<script\b[^>]*\bnonce="([^"]+)"')
SCRIPTS = re.compile(r"<script\b")


def _cookie(response: Response) -> str:
    """The Set-Cookie of the desk session's cookie."""
    found = [c for c in response.headers.get_list("set-cookie") if c.startswith(f"{COOKIE}=")]
    assert len(found) == 1, response.headers
    return found[0]


def _flags(set_cookie: str) -> set[str]:
    return {part.strip().lower() for part in set_cookie.split(";")[1:]}


async def _session_rows(db: AsyncSession, user: DeskUser) -> int:
    found = await db.scalar(
        text("SELECT count(*) FROM desk_sessions WHERE user_id = :id"), {"id": user.id}
    )
    return int(found or 0)


# ---- signing in and out ------------------------------------------------------------------


async def test_sign_in_sets_a_session_cookie_and_opens_the_desk(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    editor = await desk_user("editor")
    unsigned = await client.get("/desk/")
    assert unsigned.status_code == 303
    assert unsigned.headers["location"] == "/desk/signin?next=%2Fdesk"
    form = await client.get("/desk/signin")
    assert form.status_code == 200
    assert 'autocomplete="current-password"' in form.text

    answer = await sign_in(client, editor.login.upper(), editor.account_password)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/desk/"
    cookie = _cookie(answer)
    assert _flags(cookie) == {"httponly", "path=/", "samesite=lax"}  # no Secure over http
    home = await client.get("/desk/")
    assert home.status_code == 200
    assert f"Welcome, {editor.login}" in home.text
    assert 'href="/desk/sessions/"' in home.text
    assert 'href="/desk/users/"' not in home.text  # administrators only


async def test_wrong_passwords_and_the_two_kinds_of_password(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    author = await desk_user("author")
    wrong = await sign_in(client, author.login, "not the password")
    assert wrong.status_code == 401
    assert "The login or the password is wrong." in wrong.text
    assert f'value="{author.login}"' in wrong.text  # the login is kept
    unknown = await sign_in(client, "nobody-at-all", author.account_password)
    assert unknown.status_code == 401
    assert COOKIE not in unknown.headers.get("set-cookie", "")
    # The application password is for programs: the desk refuses it ...
    app_password = await sign_in(client, author.login, author.password)
    assert app_password.status_code == 401
    # ... and the API refuses the account password, while taking the application password.
    event = {
        "title": "Talk",
        "start_date": "2030-01-01 10:00:00",
        "end_date": "2030-01-01 11:00:00",
    }
    refused = await client.post(
        f"{API}/events", json=event, headers=basic(author.login, author.account_password)
    )
    assert refused.status_code == 401
    bearer = await client.post(
        f"{API}/events", json=event, headers={"Authorization": f"Bearer {author.account_password}"}
    )
    assert bearer.status_code == 401
    taken = await client.post(f"{API}/events", json=event, headers=author.basic)
    assert taken.status_code == 201


async def test_failed_sign_ins_share_the_apis_throttle(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    user = await desk_user("contributor")
    limit = 10  # LOGIN_FAILURES_LIMIT's default
    for _ in range(limit - 1):
        assert (await sign_in(client, user.login, "wrong password")).status_code == 401
    # One failure at the API: the same count.
    api = await client.get(f"{API}/events", headers=basic(user.login, "wrong"))
    assert api.status_code == 401
    throttled = await sign_in(client, user.login, user.account_password)
    assert throttled.status_code == 429
    assert int(throttled.headers["retry-after"]) >= 1
    assert "Too many failed sign-ins" in throttled.text
    assert COOKIE not in throttled.headers.get("set-cookie", "")
    api_too = await client.get(f"{API}/events", headers=user.basic)
    assert api_too.status_code == 429


async def test_sign_out_ends_the_session(
    client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession
) -> None:
    user = await desk_user("subscriber")
    token = await desk_login(client, user)
    assert await _session_rows(db, user) == 1
    without = await client.post("/desk/signout")
    assert without.status_code == 403
    out = await client.post("/desk/signout", data={"csrf_token": token})
    assert out.status_code == 303
    assert out.headers["location"] == "/desk/signin?signedout=1"
    assert "Max-Age=0" in _cookie(out) or "expires=" in _cookie(out).lower()
    assert await _session_rows(db, user) == 0
    notice = await client.get(out.headers["location"])
    assert "You have signed out." in notice.text


async def test_the_desk_in_german_and_slovak(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    user = await desk_user("author")
    german = await client.get("/de/desk/signin")
    assert german.status_code == 200
    assert '<html lang="de">' in german.text
    assert "Bei der Redaktion anmelden" in german.text
    assert german.headers["content-language"] == "de"
    answer = await sign_in(client, user.login, user.account_password, prefix="/sk")
    assert answer.headers["location"] == "/sk/desk/"
    home = await client.get("/sk/desk/")
    assert "Moje relácie" in home.text
    assert 'href="/sk/desk/events/"' in home.text
    assert 'hreflang="de" lang="de"' in home.text


# ---- headers -----------------------------------------------------------------------------


async def test_every_desk_response_is_no_store_with_a_nonce_csp(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    user = await desk_user("editor")
    await desk_login(client, user)
    answers = {
        "sign-in redirect": await client.get("/desk/signin"),
        "home": await client.get("/desk/"),
        "sessions": await client.get("/desk/sessions/"),
        "unknown screen": await client.get("/desk/no-such-screen/"),
        "refused form": await client.post("/desk/sessions/end-others"),
    }
    assert answers["unknown screen"].status_code == 404
    assert answers["refused form"].status_code == 403
    nonces = set()
    for name, answer in answers.items():
        headers = answer.headers
        assert headers["cache-control"] == "no-store", name
        assert headers["x-frame-options"] == "DENY", name
        assert headers["referrer-policy"] == "same-origin", name
        policy = dict(
            (part.strip().split(" ", 1) + [""])[:2]
            for part in headers["content-security-policy"].split(";")
        )
        assert "unsafe-inline" not in headers["content-security-policy"], name
        assert policy["default-src"] == "'self'"
        assert policy["frame-ancestors"] == "'none'"
        assert policy["form-action"] == "'self'"
        assert policy["base-uri"] == "'none'"
        assert policy["img-src"].startswith("'self' data:")
        nonce = re.fullmatch(r"'self' 'nonce-([A-Za-z0-9_-]+)'", policy["script-src"])
        assert nonce is not None, name
        nonces.add(nonce.group(1))
        if answer.headers.get("content-type", "").startswith("text/html"):
            # Every script carries this response's nonce, and no attribute is inline code.
            scripts = SCRIPTS.findall(answer.text)
            assert scripts, name
            assert SCRIPT_NONCES.findall(answer.text) == [nonce.group(1)] * len(scripts), name
            assert not re.search(r"\son[a-z]+=|\sstyle=", answer.text), name
    assert len(nonces) == len(answers)  # a new nonce per response
    css = await client.get("/desk/static/desk.css")
    assert css.status_code == 200
    assert css.headers["content-type"].startswith("text/css")
    assert (await client.get("/desk/static/..%2Fcontext.py")).status_code == 404


# ---- CSRF and cross-site posts ------------------------------------------------------------


async def test_forms_need_the_sessions_token_and_this_origin(
    app: FastAPI, client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession
) -> None:
    user = await desk_user("author")
    token = await desk_login(client, user)
    async with asgi_client(app) as elsewhere:  # a second session of the same person
        other_token = await desk_login(elsewhere, user)
    assert other_token != token
    assert await _session_rows(db, user) == 2
    end = "/desk/sessions/end-others"
    refusals = {
        "no token": await client.post(end),
        "wrong token": await client.post(end, data={"csrf_token": "x" + token}),
        "the other session's token": await client.post(end, data={"csrf_token": other_token}),
        "cross-site origin": await client.post(
            end, data={"csrf_token": token}, headers={"Origin": "https://evil.example"}
        ),
        "another port": await client.post(
            end, data={"csrf_token": token}, headers={"Origin": "http://testserver:8081"}
        ),
        "sec-fetch-site": await client.post(
            end, data={"csrf_token": token}, headers={"Sec-Fetch-Site": "cross-site"}
        ),
        "same-site": await client.post(
            end, data={"csrf_token": token}, headers={"Sec-Fetch-Site": "same-site"}
        ),
        "a script's wrong header": await client.post(
            end, data={"csrf_token": token}, headers={"X-CSRF-Token": other_token}
        ),
    }
    for name, answer in refusals.items():
        assert answer.status_code == 403, name
    assert "from another site" in refusals["cross-site origin"].text
    assert "The form has expired" in refusals["wrong token"].text
    assert await _session_rows(db, user) == 2  # nothing was ended
    same = await client.post(
        end,
        data={"csrf_token": token},
        headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )
    assert same.status_code == 303
    assert await _session_rows(db, user) == 1
    shown = await client.get(same.headers["location"])
    assert "Sessions ended: 1." in shown.text
    assert "Sessions ended" not in (await client.get("/desk/sessions/")).text  # shown once
    # A screen's script sends the token as a header; the default port may be spelled out.
    scripted = await client.post(
        end, headers={"X-CSRF-Token": token, "Origin": "http://testserver:80"}
    )
    assert scripted.status_code == 303


async def test_a_cross_site_sign_in_is_refused(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    user = await desk_user("author")
    answer = await sign_in(client, user.login, user.account_password)
    assert answer.status_code == 303
    forced = await client.post(
        "/desk/signin",
        data={"login": user.login, "password": user.account_password},
        headers={"Origin": "https://evil.example"},
    )
    assert forced.status_code == 403


# ---- the cookie's Secure flag behind a proxy ------------------------------------------------


async def test_secure_cookie_only_behind_a_trusted_https_proxy(
    app: FastAPI, client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    user = await desk_user("editor")
    https = {"X-Forwarded-Proto": "https"}
    # The in-process client connects from 127.0.0.1, the default FORWARDED_ALLOW_IPS.
    proxied = await client.post(
        "/desk/signin", data={"login": user.login, "password": user.account_password}, headers=https
    )
    assert proxied.status_code == 303
    assert "secure" in _flags(_cookie(proxied))
    async with asgi_client(app, client=("203.0.113.7", 4000)) as stranger:
        direct = await stranger.post(
            "/desk/signin",
            data={"login": user.login, "password": user.account_password},
            headers=https,
        )
    assert direct.status_code == 303
    assert "secure" not in _flags(_cookie(direct))


# ---- expiry and revocation --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "age"),
    [("last_seen_at", "121 minutes"), ("created_at", "25 hours")],
    ids=["idle", "absolute"],
)
async def test_an_expired_session_is_signed_out(
    client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession, column: str, age: str
) -> None:
    """DESK_SESSION_IDLE_MINUTES (120) without a request, or DESK_SESSION_LIFETIME_HOURS (24)
    after sign-in, however busy: the next request goes to the sign-in page."""
    user = await desk_user("author")
    await desk_login(client, user)
    await db.execute(
        text(f"UPDATE desk_sessions SET {column} = now() - interval '{age}' WHERE user_id = :id"),
        {"id": user.id},
    )
    await db.commit()
    answer = await client.get("/desk/sessions/?x=1")
    assert answer.status_code == 303
    target = urlsplit(answer.headers["location"])
    assert target.path == "/desk/signin"
    assert parse_qs(target.query) == {"next": ["/desk/sessions?x=1"], "ended": ["1"]}
    assert "Max-Age=0" in _cookie(answer) or "expires=" in _cookie(answer).lower()
    page = await client.get(answer.headers["location"])
    assert "Your session has ended. Please sign in again." in page.text
    await desk_login(client, user)  # a sign-in clears out sessions that ended by themselves
    assert await _session_rows(db, user) == 1


async def test_a_request_keeps_a_session_alive(
    client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession
) -> None:
    user = await desk_user("author")
    await desk_login(client, user)
    await db.execute(
        text("UPDATE desk_sessions SET last_seen_at = now() - interval '119 minutes'"
             " WHERE user_id = :id"),
        {"id": user.id},
    )  # fmt: skip
    await db.commit()
    assert (await client.get("/desk/")).status_code == 200
    fresh = await db.scalar(
        text("SELECT last_seen_at > now() - interval '1 minute' FROM desk_sessions"
             " WHERE user_id = :id"),
        {"id": user.id},
    )  # fmt: skip
    assert fresh is True


async def test_ending_another_session_signs_it_out(
    app: FastAPI, client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession
) -> None:
    user = await desk_user("contributor")
    token = await desk_login(client, user)
    async with asgi_client(app) as other:
        await desk_login(other, user)
        listing = await client.get("/desk/sessions/")
        ids = [int(i) for i in re.findall(r'action="/desk/sessions/(\d+)/end"', listing.text)]
        assert len(ids) == 2
        theirs = max(ids)  # the later sign-in
        # Another person cannot end it.
        stranger = await desk_user("editor")
        async with asgi_client(app) as third:
            third_token = await desk_login(third, stranger)
            foreign = await third.post(
                f"/desk/sessions/{theirs}/end", data={"csrf_token": third_token}
            )
            assert foreign.status_code == 303
        assert (await other.get("/desk/")).status_code == 200
        ended = await client.post(f"/desk/sessions/{theirs}/end", data={"csrf_token": token})
        assert ended.status_code == 303
        after = await other.get("/desk/")
        assert after.status_code == 303
        assert "ended=1" in after.headers["location"]
    assert (await client.get("/desk/")).status_code == 200


async def test_a_new_account_password_ends_the_sessions(
    client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession
) -> None:
    from app.core.settings import get_settings
    from app.users.service import Accounts

    user = await desk_user("editor")
    await desk_login(client, user)
    await Accounts(db, get_settings().app_password_pepper).set_account_password(
        user.login, "a brand new password"
    )
    await db.commit()
    assert (await client.get("/desk/")).status_code == 303
    assert (await sign_in(client, user.login, user.account_password)).status_code == 401
    assert (await sign_in(client, user.login, "a brand new password")).status_code == 303


# ---- the cookie elsewhere: reads yes, writes never ------------------------------------------


async def test_the_desk_cookie_reads_the_api_and_pages_as_its_person(
    client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession
) -> None:
    editor = await desk_user("editor")
    draft = await make_event(db, status="draft", title="Secret Draft Concert")
    await db.commit()
    anonymous = await client.get(f"{API}/events/{draft}")
    assert anonymous.status_code == 403
    await desk_login(client, editor)
    read = await client.get(f"{API}/events/{draft}")
    assert read.status_code == 200
    assert read.json()["status"] == "draft"
    assert read.headers["cache-control"].startswith("private")
    assert "Cookie" in read.headers["vary"]
    listed = await client.get(f"{API}/events", params={"status": "draft"})
    assert listed.status_code == 200
    assert [e["id"] for e in listed.json()["events"]] == [draft]
    slug = read.json()["slug"]
    page = await client.get(f"/event/{slug}/")
    assert page.status_code == 200
    assert "Secret Draft Concert" in page.text
    client.cookies.clear()
    assert (await client.get(f"/event/{slug}/")).status_code == 404


async def test_the_desk_cookie_never_authorises_an_api_write(
    client: AsyncClient, desk_user: DeskUserFactory, db: AsyncSession
) -> None:
    editor = await desk_user("editor")
    token = await desk_login(client, editor)
    event = await make_event(db, title="Untouched")
    await db.commit()
    body = {"title": "Changed by a cookie"}
    for method, path, payload in (
        ("POST", f"{API}/events", {"title": "New", "start_date": "2030-01-01 10:00:00",
                                   "end_date": "2030-01-01 11:00:00"}),
        ("POST", f"{API}/events/{event}", body),
        ("PUT", f"{API}/events/{event}", body),
        ("PATCH", f"{API}/events/{event}", body),
        ("DELETE", f"{API}/events/{event}", None),
        ("POST", f"{API}/tags", {"name": "cookie-tag"}),
    ):  # fmt: skip
        answer = await client.request(method, path, json=payload, headers={"X-CSRF-Token": token})
        assert answer.status_code == 401, (method, path, answer.text)
    still = await client.get(f"{API}/events/{event}")
    assert still.json()["title"] == "Untouched"


# ---- next= ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wanted", "lands"),
    [
        ("/desk/sessions/", "/desk/sessions/"),
        ("/de/desk/sessions/?a=1", "/de/desk/sessions/?a=1"),
        ("https://evil.example/desk/", "/desk/"),
        ("//evil.example/desk/", "/desk/"),
        ("/\\evil.example/desk/", "/desk/"),
        ("/events/", "/desk/"),
        ("/desk/../calendar/events/v1/", "/desk/"),
        ("javascript:alert(1)", "/desk/"),
        ("/desk/%0d%0aSet-Cookie:x=1", "/desk/%0d%0aSet-Cookie:x=1"),
    ],
)
async def test_next_leads_only_to_the_desk(
    client: AsyncClient, desk_user: DeskUserFactory, wanted: str, lands: str
) -> None:
    user = await desk_user("author")
    form = await client.get("/desk/signin", params={"next": wanted})
    kept = 'name="next"' in form.text
    assert kept is (lands == wanted)
    answer = await sign_in(client, user.login, user.account_password, next=wanted)
    assert answer.status_code == 303
    assert answer.headers["location"] == lands
    again = await client.get("/desk/signin", params={"next": wanted})  # signed in already
    assert again.headers["location"] == lands


async def test_csrf_token_is_in_the_layouts_sign_out_form(
    client: AsyncClient, desk_user: DeskUserFactory
) -> None:
    user = await desk_user("contributor")
    token = await desk_login(client, user)
    home = await client.get("/desk/")
    assert csrf_token(home) == token
    assert 'action="/desk/signout"' in home.text
