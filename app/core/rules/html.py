"""Markup from callers without WordPress's `unfiltered_html` (authors, contributors): what
they may keep, as WordPress's kses lets them (docs/design.md#records).

Descriptions and excerpts keep the tags and attributes of WordPress's allowed post tags;
titles and names keep its few inline tags; other text fields (addresses, phones, costs) keep
no markup. Scripts, `on*` handlers, `javascript:` and other unknown URL schemes never stay,
nor does a style declaration that could load or run anything (`url(`, `expression(`, CSS
escapes). The sanitiser is nh3 (ammonia), an HTML5 parser, not a pattern match.

The public pages print every description and excerpt through `post_html`, whoever wrote it
(app/pages/markup.py): editors keep their markup in the API, not on a page.
"""

import html
import re
from typing import Final

import nh3

# wp_allowed_protocols()
URL_SCHEMES: Final = frozenset(
    {
        "http", "https", "ftp", "ftps", "mailto", "news", "irc", "irc6", "ircs", "gopher",
        "nntp", "feed", "telnet", "mms", "rtsp", "sms", "svn", "tel", "fax", "xmpp", "webcal",
        "urn",
    }
)  # fmt: skip

# _wp_add_global_attributes(): every allowed tag takes these, and data-* / aria-*.
GLOBAL_ATTRIBUTES: Final = frozenset({"class", "id", "style", "title", "role", "dir", "lang"})

TABLE_CELL: Final = frozenset(
    {"abbr", "align", "axis", "bgcolor", "char", "charoff", "colspan", "headers", "height"}
    | {"nowrap", "rowspan", "scope", "valign", "width"}
)

# $allowedposttags (wp-includes/kses.php), attributes beyond the global ones.
POST_TAGS: Final[dict[str, set[str] | frozenset[str]]] = {
    "address": set(),
    "a": {"href", "rel", "rev", "name", "target", "download", "referrerpolicy"},
    "abbr": set(),
    "acronym": set(),
    "area": {"alt", "coords", "href", "nohref", "shape", "target"},
    "article": {"align"},
    "aside": {"align"},
    "audio": {"autoplay", "controls", "loop", "muted", "preload", "src"},
    "b": set(),
    "bdo": set(),
    "big": set(),
    "blockquote": {"cite"},
    "br": set(),
    "button": {"disabled", "name", "type", "value"},
    "caption": {"align"},
    "cite": set(),
    "code": set(),
    "col": {"align", "char", "charoff", "span", "valign", "width"},
    "colgroup": {"align", "char", "charoff", "span", "valign", "width"},
    "del": {"datetime"},
    "dd": set(),
    "dfn": set(),
    "details": {"align", "open"},
    "div": {"align"},
    "dl": set(),
    "dt": set(),
    "em": set(),
    "fieldset": set(),
    "figure": {"align"},
    "figcaption": {"align"},
    "font": {"color", "face", "size"},
    "footer": {"align"},
    "h1": {"align"},
    "h2": {"align"},
    "h3": {"align"},
    "h4": {"align"},
    "h5": {"align"},
    "h6": {"align"},
    "header": {"align"},
    "hgroup": {"align"},
    "hr": {"align", "noshade", "size", "width"},
    "i": set(),
    "img": {
        "alt",
        "align",
        "border",
        "height",
        "hspace",
        "loading",
        "longdesc",
        "vspace",
        "src",
        "usemap",
        "width",
        "decoding",
        "srcset",
        "sizes",
    },  # fmt: skip
    "ins": {"datetime", "cite"},
    "kbd": set(),
    "label": {"for"},
    "legend": {"align"},
    "li": {"align", "value"},
    "main": {"align"},
    "map": {"name"},
    "mark": set(),
    "menu": {"type"},
    "nav": {"align"},
    "p": {"align"},
    "pre": {"width"},
    "q": {"cite"},
    "rb": set(),
    "rp": set(),
    "rt": set(),
    "rtc": set(),
    "ruby": set(),
    "s": set(),
    "samp": set(),
    "span": {"align"},
    "section": {"align"},
    "small": set(),
    "strike": set(),
    "strong": set(),
    "sub": set(),
    "summary": {"align"},
    "sup": set(),
    "table": {
        "align",
        "bgcolor",
        "border",
        "cellpadding",
        "cellspacing",
        "rules",
        "summary",
        "width",
    },  # fmt: skip
    "tbody": {"align", "char", "charoff", "valign"},
    "td": TABLE_CELL,
    "textarea": {"cols", "rows", "disabled", "name", "readonly"},
    "tfoot": {"align", "char", "charoff", "valign"},
    "th": TABLE_CELL,
    "thead": {"align", "char", "charoff", "valign"},
    "title": set(),
    "tr": {"align", "bgcolor", "char", "charoff", "valign"},
    "track": {"default", "kind", "label", "src", "srclang"},
    "tt": set(),
    "u": set(),
    "ul": {"type"},
    "ol": {"start", "type", "reversed"},
    "var": set(),
    "video": {
        "autoplay",
        "controls",
        "height",
        "loop",
        "muted",
        "playsinline",
        "poster",
        "preload",
        "src",
        "width",
    },  # fmt: skip
}

# $allowedtags: what titles and term names keep (wp_filter_kses).
INLINE_TAGS: Final[dict[str, set[str] | frozenset[str]]] = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "acronym": {"title"},
    "b": set(),
    "blockquote": {"cite"},
    "cite": set(),
    "code": set(),
    "del": {"datetime"},
    "em": set(),
    "i": set(),
    "q": {"cite"},
    "s": set(),
    "strike": set(),
    "strong": set(),
}

# safecss_filter_attr(): the CSS properties a style attribute keeps.
STYLE_PROPERTIES: Final = frozenset(
    {
        "background", "background-color", "border", "border-width", "border-color",
        "border-style", "border-radius", "border-top", "border-right", "border-bottom",
        "border-left", "border-collapse", "border-spacing", "caption-side", "color", "columns",
        "column-count", "column-gap", "direction", "float", "font", "font-family", "font-size",
        "font-style", "font-variant", "font-weight", "height", "min-height", "max-height",
        "letter-spacing", "line-height", "list-style-type", "margin", "margin-top",
        "margin-right", "margin-bottom", "margin-left", "padding", "padding-top",
        "padding-right", "padding-bottom", "padding-left", "text-align", "text-decoration",
        "text-indent", "text-transform", "vertical-align", "width", "min-width", "max-width",
        "white-space",
    }
)  # fmt: skip

# Their content is code, not text: removed with the tags.
CODE_TAGS: Final = frozenset({"script", "style"})

# The CSS functions a kept declaration may call: colours and arithmetic. Never `url()`,
# `image-set()` (they fetch), `expression()` (old IE runs it) or anything else.
CSS_FUNCTIONS: Final = frozenset({"rgb", "rgba", "hsl", "hsla", "calc", "min", "max", "clamp"})
_CSS_CALL = re.compile(r"([\w-]*)\s*\(")
# Escapes (`ex\70 ression`, `\75 rl(`), comments, blocks, at-rules and markup: a declaration
# with any of them is not one an editor types, and each can hide a call from the check above.
_CSS_HIDING = re.compile(r"[\\{}<>@&]|/\*")


def _safe_declaration(declaration: str) -> bool:
    if _CSS_HIDING.search(declaration):
        return False
    return all(name.lower() in CSS_FUNCTIONS for name in _CSS_CALL.findall(declaration))


def _kept_style(value: str) -> str | None:
    """A style attribute's declarations that can neither load nor run anything (nh3 then
    keeps the allowed properties of them); None drops the attribute."""
    kept = [part for part in value.split(";") if part.strip() and _safe_declaration(part)]
    return ";".join(kept) if kept else None


def _attribute(tag: str, name: str, value: str) -> str | None:
    return _kept_style(value) if name == "style" else value


def _cleaner(tags: dict[str, set[str] | frozenset[str]]) -> nh3.Cleaner:
    return nh3.Cleaner(
        tags=set(tags),
        clean_content_tags=set(CODE_TAGS),
        attributes={
            "*": set(GLOBAL_ATTRIBUTES),
            **{tag: set(names) for tag, names in tags.items()},
        },
        generic_attribute_prefixes={"data-", "aria-"},
        url_schemes=set(URL_SCHEMES),
        filter_style_properties=set(STYLE_PROPERTIES),
        attribute_filter=_attribute,
        link_rel=None,  # WordPress does not add rel to links; `rel` is an allowed attribute
        strip_comments=True,
    )


_POST = _cleaner(POST_TAGS)
_INLINE = _cleaner(INLINE_TAGS)
_PLAIN = _cleaner({})


def _as_text(cleaned: str) -> str:
    """Undo the escaping a serialiser adds to text that was no markup (`Tom & Jerry` stays
    as it was sent). Only `&`, `>` and the no-break space are restored: none of them can
    open a tag, whereas `&lt;` stays escaped."""
    return cleaned.replace("&gt;", ">").replace("&nbsp;", "\xa0").replace("&amp;", "&")


def post_html(text: str) -> str:
    """A description or excerpt: WordPress's allowed post tags."""
    return _POST.clean(text)


def inline_text(text: str) -> str:
    """A title or term name: WordPress's few inline tags, otherwise text."""
    return _as_text(_INLINE.clean(text))


def plain_text(text: str) -> str:
    """An address, phone, cost...: no markup at all."""
    return _as_text(_PLAIN.clean(text))


# Where a line or paragraph ends when markup becomes text (calendar descriptions).
_LINE_BREAK = re.compile(r"<br\s*/?>|<(?:li|tr|dt|dd)\b[^>]*>", re.IGNORECASE)
_PARAGRAPH = re.compile(
    r"</?(?:p|div|h[1-6]|ul|ol|dl|table|blockquote|pre|section|article|header|footer|figure)"
    r"\b[^>]*>|<hr\b[^>]*>",
    re.IGNORECASE,
)
_BLANK_LINES = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
_SPACES = re.compile(r"[ \t\r\f\v]+")


def html_to_text(text: str) -> str:
    """Readable plain text of markup (a calendar's DESCRIPTION): blocks become paragraphs,
    `<br>` and list items lines, tags and code go, entities become their characters."""
    marked = _PARAGRAPH.sub("\n\n", _LINE_BREAK.sub("\n", text))
    plain = html.unescape(_PLAIN.clean(marked)).replace("\xa0", " ")
    lines = "\n".join(_SPACES.sub(" ", line).strip() for line in plain.split("\n"))
    return _BLANK_LINES.sub("\n\n", lines).strip()


class Markup:
    """What a write keeps of the markup it was sent: all of it from callers who may post
    unfiltered HTML (editors, administrators), the allowed markup from everybody else."""

    def __init__(self, unfiltered: bool) -> None:
        self.unfiltered = unfiltered

    def html(self, text: str) -> str:
        return text if self.unfiltered else post_html(text)

    def inline(self, text: str) -> str:
        return text if self.unfiltered else inline_text(text)

    def plain(self, text: str) -> str:
        return text if self.unfiltered else plain_text(text)
