"""The site's languages: the texts are written in English, the source language (it has no
catalog), and translated into German and Slovak (locale/<lang>/LC_MESSAGES/)."""

LANGUAGES: tuple[str, ...] = ("en", "de", "sk")
SOURCE_LANGUAGE = "en"
