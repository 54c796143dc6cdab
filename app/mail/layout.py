"""A message's two texts from one description: the plain text and the HTML (escaped, inline
styles only, no remote images: mail clients block them), so that both always say the same."""

from dataclasses import dataclass
from html import escape


@dataclass(frozen=True, slots=True)
class Link:
    label: str  # the HTML's link text
    intro: str  # the plain text's line before the address
    url: str


@dataclass(frozen=True, slots=True)
class Image:
    cid: str  # the Content-ID without its brackets (app/mail/letters.py Part)
    alt: str
    caption: str


@dataclass(frozen=True, slots=True)
class Content:
    language: str
    title: str  # the HTML's <title> (the subject)
    greeting: str
    paragraphs: tuple[str, ...]
    details: tuple[tuple[str, str], ...] = ()  # label, value
    image: Image | None = None
    links: tuple[Link, ...] = ()
    footer: tuple[str, ...] = ()


def plain_text(content: Content) -> str:
    lines = [content.greeting, ""]
    for paragraph in content.paragraphs:
        lines += [paragraph, ""]
    if content.details:
        lines += [f"{label}: {value}" for label, value in content.details] + [""]
    if content.image is not None:
        lines += [content.image.caption, ""]
    for link in content.links:
        lines += [link.intro, link.url, ""]
    if content.footer:
        lines += ["-- ", *content.footer]
    return "\n".join(lines).rstrip() + "\n"


def html_text(content: Content) -> str:
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(content.language)}"><head><meta charset="utf-8">',
        f"<title>{escape(content.title)}</title></head>",
        '<body style="font-family: sans-serif; line-height: 1.5; color: #1a1a1a; '
        'max-width: 40em; margin: 0 auto; padding: 1em;">',
        f"<p>{escape(content.greeting)}</p>",
    ]
    parts += [_paragraph(paragraph) for paragraph in content.paragraphs]
    if content.details:
        rows = "".join(
            f'<tr><th scope="row" style="text-align: left; padding-right: 1em;">'
            f"{escape(label)}</th><td>{escape(value)}</td></tr>"
            for label, value in content.details
        )
        parts.append(f"<table>{rows}</table>")
    image = content.image
    if image is not None:
        parts.append(
            f'<p><img src="cid:{escape(image.cid)}" alt="{escape(image.alt)}" width="240" '
            f'height="240"><br>{escape(image.caption)}</p>'
        )
    parts += [
        f'<p><a href="{escape(link.url)}">{escape(link.label)}</a></p>' for link in content.links
    ]
    if content.footer:
        footer = "<br>".join(escape(line) for line in content.footer)
        parts.append(f'<p style="color: #555; font-size: 0.9em;">{footer}</p>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _paragraph(text: str) -> str:
    """A paragraph of plain text (an organiser's message keeps its line breaks)."""
    return "<p>" + "<br>\n".join(escape(line) for line in text.split("\n")) + "</p>"
