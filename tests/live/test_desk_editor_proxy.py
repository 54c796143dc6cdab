"""The event editor's image behind the shipped nginx config (deploy/nginx.conf, the harness
of tests/live/test_proxy_nginx.py): a phone photo's form reaches the app, and so does one
far over the image limit, for the desk to answer with its own page (never nginx's JSON)."""

import httpx

from tests.live import test_proxy_nginx as nginx
from tests.live.test_proxy_nginx import Proxied
from tests.media_files import noise_jpeg

# The nginx harness's fixtures (a server, a certificate, the media volume, nginx in front).
app_server = nginx.app_server
certificate = nginx.certificate
media_volume = nginx.media_volume
proxied = nginx.proxied


async def test_the_editors_image_forms_reach_the_desk_behind_nginx(proxied: Proxied) -> None:
    photo = noise_jpeg((1750, 1300))  # 2.7 MB: over nginx's general 1 MiB
    huge = b"\xff\xd8" + bytes(35_000_000)  # a 35 MB camera file: over the image limit
    async with httpx.AsyncClient(base_url=proxied.root, timeout=60) as client:
        for path in ("/desk/events/new", "/de/desk/events/12/edit", "/desk/media"):
            for data in (photo, huge):
                answer = await client.post(
                    path, data={"title": "x"}, files={"image_file": ("p.jpg", data, "image/jpeg")}
                )
                # Not signed in: the desk's own answer (its sign-in page), not nginx's 413.
                assert answer.status_code == 303, (path, len(data), answer.text[:200])
                assert "/desk/signin" in answer.headers["location"]
        api = await client.post("/calendar/events/v1/categories", content=bytes(2_000_000))
        assert api.status_code == 413  # elsewhere nginx's limit stands
