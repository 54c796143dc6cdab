"""Languages and the translated message catalogue (error messages and parameter notes)."""

from typing import Final

# key -> language -> template. English texts are the reference's own wording.
MESSAGES: Final[dict[str, dict[str, str]]] = {
    "rest_no_route": {
        "en": "No route was found matching the URL and request method.",
        "de": "Es wurde keine Route gefunden, die der URL und der Anfragemethode entspricht.",
        "sk": "Nenašla sa žiadna trasa zodpovedajúca URL a metóde požiadavky.",
    },
    "rest_missing_callback_param": {
        "en": "Missing parameter(s): {names}",
        "de": "Fehlende(r) Parameter: {names}",
        "sk": "Chýbajúce parametre: {names}",
    },
    "rest_invalid_param": {
        "en": "Invalid parameter(s): {names}",
        "de": "Ungültige(r) Parameter: {names}",
        "sk": "Neplatné parametre: {names}",
    },
    "invalid_parameter": {
        "en": "Invalid parameter.",
        "de": "Ungültiger Parameter.",
        "sk": "Neplatný parameter.",
    },
    "not_of_type": {
        "en": "{name} is not of type {type}.",
        "de": "{name} ist nicht vom Typ {type}.",
        "sk": "{name} nie je typu {type}.",
    },
    "too_long": {
        "en": "{name} must be at most {max} characters long.",
        "de": "{name} darf höchstens {max} Zeichen lang sein.",
        "sk": "{name} môže mať najviac {max} znakov.",
    },
    "too_many_items": {
        "en": "{name} must contain at most {max} items.",
        "de": "{name} darf höchstens {max} Einträge enthalten.",
        "sk": "{name} môže obsahovať najviac {max} položiek.",
    },
    "per_page_too_large": {
        "en": "per_page must be between 1 (inclusive) and {max} (inclusive).",
        "de": "per_page muss zwischen 1 und {max} (jeweils einschließlich) liegen.",
        "sk": "per_page musí byť medzi 1 a {max} (vrátane).",
    },
    "unknown_language": {
        "en": "i18n_language must be one of {languages}.",
        "de": "i18n_language muss einer der Werte {languages} sein.",
        "sk": "i18n_language musí byť jedna z hodnôt {languages}.",
    },
    "rest_invalid_json": {
        "en": "Invalid JSON body passed.",
        "de": "Ungültiger JSON-Inhalt übergeben.",
        "sk": "Bolo odoslané neplatné telo JSON.",
    },
    "rest_invalid_body": {
        "en": "The request body could not be read.",
        "de": "Der Anfrageinhalt konnte nicht gelesen werden.",
        "sk": "Telo požiadavky sa nepodarilo prečítať.",
    },
    "rest_forbidden": {
        "en": "Sorry, you are not allowed to do that.",
        "de": "Du bist leider nicht berechtigt, dies zu tun.",
        "sk": "Prepáčte, na túto akciu nemáte oprávnenie.",
    },
    "invalid_username": {
        "en": "Unknown username. Check again or try your email address.",
        "de": "Unbekannter Benutzername. Bitte erneut prüfen.",
        "sk": "Neznáme používateľské meno. Skontrolujte ho znova.",
    },
    "incorrect_password": {
        "en": "The provided password is an invalid application password.",
        "de": "Das angegebene Passwort ist kein gültiges Anwendungspasswort.",
        "sk": "Zadané heslo nie je platné aplikačné heslo.",
    },
    "rest_internal_error": {
        "en": "An unexpected error occurred. Reference: {request_id}",
        "de": "Ein unerwarteter Fehler ist aufgetreten. Referenz: {request_id}",
        "sk": "Nastala neočakávaná chyba. Referencia: {request_id}",
    },
    "rest_unavailable": {
        "en": "The service is temporarily unavailable. Please retry shortly.",
        "de": "Der Dienst ist vorübergehend nicht verfügbar. Bitte gleich erneut versuchen.",
        "sk": "Služba je dočasne nedostupná. Skúste to o chvíľu znova.",
    },
    "rest_payload_too_large": {
        "en": "The request body is too large.",
        "de": "Der Anfrageinhalt ist zu groß.",
        "sk": "Telo požiadavky je príliš veľké.",
    },
    "term_exists": {
        "en": "A term with the name provided already exists in this taxonomy.",
        "de": "Ein Begriff mit diesem Namen existiert bereits in dieser Taxonomie.",
        "sk": "Termín s týmto názvom už v tejto taxonómii existuje.",
    },
    "term_exists_parent": {
        "en": "A term with the name provided already exists with this parent.",
        "de": "Ein Begriff mit diesem Namen existiert bereits unter diesem Elternbegriff.",
        "sk": "Termín s týmto názvom už pod týmto nadradeným termínom existuje.",
    },
    "rest_taxonomy_not_hierarchical": {
        "en": "Cannot set parent term, taxonomy is not hierarchical.",
        "de": "Elternbegriff kann nicht gesetzt werden, die Taxonomie ist nicht hierarchisch.",
        "sk": "Nadradený termín nemožno nastaviť, taxonómia nie je hierarchická.",
    },
    "term_parent_loop": {
        "en": "A term cannot be its own ancestor.",
        "de": "Ein Begriff kann nicht sein eigener Vorfahr sein.",
        "sk": "Termín nemôže byť svojím vlastným predkom.",
    },
    "rest-category-not-found": {
        "en": "Category with ID {id} does not exist.",
        "de": "Die Kategorie mit der ID {id} existiert nicht.",
        "sk": "Kategória s ID {id} neexistuje.",
    },
    "rest-tag-not-found": {
        "en": "Tag with ID {id} does not exist.",
        "de": "Das Schlagwort mit der ID {id} existiert nicht.",
        "sk": "Štítok s ID {id} neexistuje.",
    },
    "rest-event-not-found": {
        "en": "Event with ID {id} does not exist.",
        "de": "Die Veranstaltung mit der ID {id} existiert nicht.",
        "sk": "Podujatie s ID {id} neexistuje.",
    },
    "event_slug_not_found": {
        "en": "Event with slug {slug} does not exist.",
        "de": "Die Veranstaltung mit der Kurzform {slug} existiert nicht.",
        "sk": "Podujatie so slugom {slug} neexistuje.",
    },
    "rest-invalid-event-id": {
        "en": "The specified ID is not a valid event.",
        "de": "Die angegebene ID ist keine gültige Veranstaltung.",
        "sk": "Zadané ID nie je platné podujatie.",
    },
    "event-no-longer-available": {
        "en": "This event is no longer available",
        "de": "Diese Veranstaltung ist nicht mehr verfügbar",
        "sk": "Toto podujatie už nie je dostupné",
    },
    "event-not-accessible": {
        "en": "The requested event is not accessible",
        "de": "Die angeforderte Veranstaltung ist nicht zugänglich",
        "sk": "Požadované podujatie nie je prístupné",
    },
    "event-password-protected": {
        "en": "The requested event is not accessible without a password",
        "de": "Die angeforderte Veranstaltung ist ohne Passwort nicht zugänglich",
        "sk": "Požadované podujatie nie je prístupné bez hesla",
    },
    "event-is-in-trash": {
        "en": "The event is already trashed",
        "de": "Die Veranstaltung ist bereits im Papierkorb",
        "sk": "Podujatie je už v koši",
    },
    "event-archive-page-not-found": {
        "en": "The requested event archive page does not exist",
        "de": "Die angeforderte Seite des Veranstaltungsarchivs existiert nicht",
        "sk": "Požadovaná stránka archívu podujatí neexistuje",
    },
    "ticketed_unavailable": {
        "en": "Ticketing is not available: there are no ticketed events.",
        "de": "Tickets sind nicht verfügbar: Es gibt keine Veranstaltungen mit Tickets.",
        "sk": "Vstupenky nie sú dostupné: neexistujú podujatia so vstupenkami.",
    },
    "rest_invalid_namespace": {
        "en": "The specified namespace could not be found.",
        "de": "Der angegebene Namensraum wurde nicht gefunden.",
        "sk": "Zadaný menný priestor sa nenašiel.",
    },
    "rest_precondition_failed": {
        "en": "The record has changed since it was read (If-Match does not hold). Read it again.",
        "de": "Der Datensatz wurde seit dem Lesen geändert (If-Match trifft nicht zu). "
        "Bitte erneut lesen.",
        "sk": "Záznam sa od prečítania zmenil (If-Match neplatí). Načítajte ho znova.",
    },
    "rest_sync_token_expired": {
        "en": "The sync token is older than the kept change history. Download everything again.",
        "de": "Das Sync-Token ist älter als der aufbewahrte Änderungsverlauf. "
        "Bitte alles neu herunterladen.",
        "sk": "Synchronizačný token je starší ako uchovaná história zmien. "
        "Stiahnite si všetko znova.",
    },
    "rest_too_many_requests": {
        "en": "Too many failed login attempts. Try again later.",
        "de": "Zu viele fehlgeschlagene Anmeldeversuche. Bitte später erneut versuchen.",
        "sk": "Príliš veľa neúspešných pokusov o prihlásenie. Skúste to neskôr.",
    },
    "category-archive-page-not-found": {
        "en": "The requested category archive page does not exist",
        "de": "Die angeforderte Seite des Kategoriearchivs existiert nicht",
        "sk": "Požadovaná stránka archívu kategórií neexistuje",
    },
    "tag-archive-page-not-found": {
        "en": "The requested tag archive page does not exist",
        "de": "Die angeforderte Seite des Schlagwortarchivs existiert nicht",
        "sk": "Požadovaná stránka archívu štítkov neexistuje",
    },
    # ---- venues and organizers ----
    "rest-venue-not-found": {
        "en": "Venue with ID {id} does not exist.",
        "de": "Der Veranstaltungsort mit der ID {id} existiert nicht.",
        "sk": "Miesto konania s ID {id} neexistuje.",
    },
    "venue_slug_not_found": {
        "en": "Venue with slug {slug} does not exist.",
        "de": "Der Veranstaltungsort mit der Kurzform {slug} existiert nicht.",
        "sk": "Miesto konania so slugom {slug} neexistuje.",
    },
    "venue-not-accessible": {
        "en": "The requested venue is not accessible",
        "de": "Der angeforderte Veranstaltungsort ist nicht zugänglich",
        "sk": "Požadované miesto konania nie je prístupné",
    },
    "venue-is-in-trash": {
        "en": "The venue is already trashed",
        "de": "Der Veranstaltungsort ist bereits im Papierkorb",
        "sk": "Miesto konania je už v koši",
    },
    "venue-archive-page-not-found": {
        "en": "The requested venue archive page does not exist",
        "de": "Die angeforderte Seite des Veranstaltungsortarchivs existiert nicht",
        "sk": "Požadovaná stránka archívu miest konania neexistuje",
    },
    "rest-organizer-not-found": {
        "en": "Organizer with ID {id} does not exist.",
        "de": "Der Veranstalter mit der ID {id} existiert nicht.",
        "sk": "Organizátor s ID {id} neexistuje.",
    },
    "organizer_slug_not_found": {
        "en": "Organizer with slug {slug} does not exist.",
        "de": "Der Veranstalter mit der Kurzform {slug} existiert nicht.",
        "sk": "Organizátor so slugom {slug} neexistuje.",
    },
    "organizer-not-accessible": {
        "en": "The requested organizer is not accessible",
        "de": "Der angeforderte Veranstalter ist nicht zugänglich",
        "sk": "Požadovaný organizátor nie je prístupný",
    },
    "organizer-is-in-trash": {
        "en": "The organizer is already trashed",
        "de": "Der Veranstalter ist bereits im Papierkorb",
        "sk": "Organizátor je už v koši",
    },
    "organizer-archive-page-not-found": {
        "en": "The requested organizer archive page does not exist",
        "de": "Die angeforderte Seite des Veranstalterarchivs existiert nicht",
        "sk": "Požadovaná stránka archívu organizátorov neexistuje",
    },
}


def translate(key: str, language: str, **values: object) -> str:
    """The message `key` in `language` (English when missing), formatted with `values`."""
    templates = MESSAGES.get(key)
    if templates is None:
        return key
    template = templates.get(language) or templates["en"]
    return template.format(**values) if values else template
