"""The demo's pictures (`almanac seed --demo`): a few kinds of simple pictures drawn here
with Pillow (a sunset, stage lights, market tents, a skyline, waves, confetti), each stored in
the media library through the media pipeline every upload takes (app/media/uploads.py:
checked, re-encoded, its sizes made, saved in the media storage), with a title and an
alternative text in each language. A demo's event pages then show real images served by
almanac itself, never a link to a host that does not exist."""

import random
from collections.abc import Callable
from io import BytesIO

from PIL import Image, ImageDraw

from app.core.database.engine import make_engine, make_sessionmaker
from app.core.settings import Settings
from app.media.repository import MediaRepository
from app.media.storage import LocalStorage
from app.media.uploads import Uploads, UploadTexts

SIZE = (1200, 800)
Colour = tuple[int, int, int]
Draw = Callable[[ImageDraw.ImageDraw, random.Random], None]


def _gradient(top: Colour, bottom: Colour) -> Image.Image:
    """A vertical gradient from `top` to `bottom` (one line drawn per row)."""
    picture = Image.new("RGB", SIZE)
    draw = ImageDraw.Draw(picture)
    width, height = SIZE
    for y in range(height):
        share = y / (height - 1)
        colour = tuple(round(a + (b - a) * share) for a, b in zip(top, bottom, strict=True))
        draw.line([(0, y), (width, y)], fill=colour)
    return picture


def _sunset(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    draw.ellipse((480, 380, 720, 620), fill=(255, 214, 102))
    for number in range(3):
        top = 520 + number * 70
        points = [(x, top - rng.randint(0, 90)) for x in range(0, 1300, 100)]
        draw.polygon(
            [(0, 800), *points, (1200, 800)], fill=(60 - number * 15, 30, 70 - number * 15)
        )


def _stage(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    for x, colour in ((250, (255, 90, 160)), (600, (120, 200, 255)), (950, (255, 220, 90))):
        draw.polygon([(x - 30, 0), (x + 30, 0), (x + 220, 800), (x - 220, 800)], fill=colour)
    draw.rectangle((0, 640, 1200, 800), fill=(25, 20, 35))
    for _ in range(40):
        x = rng.randint(0, 1200)
        draw.ellipse((x - 28, 600, x + 28, 700), fill=(10, 8, 16))


def _market(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    colours = [(214, 69, 65), (242, 201, 76), (39, 174, 96), (47, 128, 237)]
    for number in range(5):
        left = 40 + number * 230
        colour = colours[number % len(colours)]
        draw.polygon([(left, 420), (left + 100, 300), (left + 200, 420)], fill=colour)
        draw.rectangle((left + 10, 420, left + 190, 640), fill=(250, 245, 235))
        for stripe in range(left + 10, left + 190, 40):
            draw.rectangle((stripe, 420, stripe + 20, 470), fill=colour)
    draw.rectangle((0, 640, 1200, 800), fill=(120, 100, 80))


def _skyline(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    x = 0
    while x < 1200:
        width, height = rng.randint(60, 150), rng.randint(200, 560)
        draw.rectangle((x, 800 - height, x + width, 800), fill=(30, 36, 60))
        for wy in range(800 - height + 20, 780, 40):
            for wx in range(x + 12, x + width - 12, 28):
                if rng.random() < 0.45:
                    draw.rectangle((wx, wy, wx + 12, wy + 18), fill=(255, 221, 120))
        x += width + rng.randint(4, 20)


def _waves(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    for number in range(6):
        top = 360 + number * 75
        colour = (20, 90 + number * 20, 150 + number * 15)
        points = [(x, top + (25 if (x // 100) % 2 else -25)) for x in range(0, 1300, 100)]
        draw.polygon([(0, 800), *points, (1200, 800)], fill=colour)
    draw.ellipse((900, 90, 1040, 230), fill=(255, 250, 230))


def _confetti(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    colours = [(255, 99, 132), (54, 162, 235), (255, 206, 86), (75, 192, 192), (153, 102, 255)]
    for _ in range(260):
        x, y, r = rng.randint(0, 1200), rng.randint(0, 800), rng.randint(6, 22)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=rng.choice(colours))


# (kind, gradient top, gradient bottom, drawing, {language: (title, alternative text)})
KINDS: tuple[tuple[str, Colour, Colour, Draw, dict[str, tuple[str, str]]], ...] = (
    (
        "sunset", (255, 120, 80), (90, 40, 120), _sunset,
        {
            "en": ("Sunset over the hills", "A yellow sun setting behind dark purple hills under an orange sky"),
            "de": ("Sonnenuntergang über den Hügeln", "Eine gelbe Sonne geht hinter dunkelvioletten Hügeln unter einem orangefarbenen Himmel unter"),
            "sk": ("Západ slnka nad kopcami", "Žlté slnko zapadá za tmavofialové kopce pod oranžovou oblohou"),
        },
    ),
    (
        "stage", (30, 20, 60), (5, 5, 15), _stage,
        {
            "en": ("Stage lights", "Pink, blue and yellow spotlights shining over the silhouettes of a concert crowd"),
            "de": ("Bühnenlicht", "Rosa, blaue und gelbe Scheinwerfer strahlen über die Silhouetten eines Konzertpublikums"),
            "sk": ("Svetlá na pódiu", "Ružové, modré a žlté reflektory svietia nad siluetami publika na koncerte"),
        },
    ),
    (
        "market", (170, 215, 255), (235, 245, 255), _market,
        {
            "en": ("Market stalls", "A row of market stalls with red, yellow, green and blue striped roofs"),
            "de": ("Marktstände", "Eine Reihe Marktstände mit rot, gelb, grün und blau gestreiften Dächern"),
            "sk": ("Trhové stánky", "Rad trhových stánkov s červeno, žlto, zeleno a modro pruhovanými strechami"),
        },
    ),
    (
        "skyline", (20, 30, 80), (240, 130, 90), _skyline,
        {
            "en": ("City at dusk", "A city skyline at dusk, with lit windows in dark tower blocks"),
            "de": ("Stadt in der Dämmerung", "Die Silhouette einer Stadt in der Dämmerung mit erleuchteten Fenstern in dunklen Hochhäusern"),
            "sk": ("Mesto za súmraku", "Panoráma mesta za súmraku s rozsvietenými oknami v tmavých vežiakoch"),
        },
    ),
    (
        "waves", (150, 210, 255), (240, 250, 255), _waves,
        {
            "en": ("Waves under the moon", "Layers of blue waves under a pale moon"),
            "de": ("Wellen unter dem Mond", "Schichten blauer Wellen unter einem blassen Mond"),
            "sk": ("Vlny pod mesiacom", "Vrstvy modrých vĺn pod bledým mesiacom"),
        },
    ),
    (
        "confetti", (255, 255, 255), (255, 240, 245), _confetti,
        {
            "en": ("Confetti", "Colourful confetti dots scattered over a white background"),
            "de": ("Konfetti", "Bunte Konfettipunkte auf weißem Grund verstreut"),
            "sk": ("Konfety", "Farebné konfety rozsypané po bielom pozadí"),
        },
    ),
)  # fmt: skip


def picture(kind: int, seed: int = 0) -> bytes:
    """The JPEG of KINDS[kind] (the same bytes for the same seed)."""
    _, top, bottom, drawing, _ = KINDS[kind]
    image = _gradient(top, bottom)
    drawing(ImageDraw.Draw(image), random.Random(f"{kind}-{seed}"))
    data = BytesIO()
    image.save(data, "JPEG", quality=85)
    return data.getvalue()


async def store_demo_images(url: str, settings: Settings) -> list[int]:
    """Every kind's picture in the media library (committed; their IDs), with its title and
    alternative text in each language."""
    engine = make_engine(url, settings, pooled=False)
    try:
        async with make_sessionmaker(engine)() as session:
            uploads = Uploads(
                MediaRepository(session),
                LocalStorage(settings.media_root),
                settings.max_image_pixels,
            )
            ids = []
            for number, (_, _, _, _, texts) in enumerate(KINDS):
                made = UploadTexts(
                    title={language: title for language, (title, _) in texts.items()},
                    alt={language: alt for language, (_, alt) in texts.items()},
                    caption={},
                )
                ids.append(await uploads.store(picture(number), made, author_id=None))
            await session.commit()
    finally:
        await engine.dispose()
    return ids
