"""Languages and the translated message catalogue (error messages and parameter notes)."""

from typing import Final, TypeGuard

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
    "list_too_deep": {
        "en": "page × per_page must be at most {max}: lists are paged through their first "
        "{max} records. To go further, narrow the list (for events, a later start_date).",
        "de": "page × per_page darf höchstens {max} sein: Listen werden über ihre ersten "
        "{max} Einträge geblättert. Um weiterzukommen, grenzen Sie die Liste ein (bei "
        "Veranstaltungen ein späteres start_date).",
        "sk": "page × per_page môže byť najviac {max}: zoznamy sa stránkujú cez prvých {max} "
        "záznamov. Ak chcete ísť ďalej, zúžte zoznam (pri podujatiach neskorší start_date).",
    },
    # ---- why a parameter is invalid (data.params) ----
    "invalid_id": {
        "en": "{name} must be an ID: a whole number from 1 to {max}.",
        "de": "{name} muss eine ID sein: eine ganze Zahl von 1 bis {max}.",
        "sk": "{name} musí byť ID: celé číslo od 1 do {max}.",
    },
    "at_least": {
        "en": "{name} must be greater than or equal to {min}.",
        "de": "{name} muss größer oder gleich {min} sein.",
        "sk": "{name} musí byť väčšie alebo rovné {min}.",
    },
    "between": {
        "en": "{name} must be between {min} (inclusive) and {max} (inclusive).",
        "de": "{name} muss zwischen {min} und {max} (jeweils einschließlich) liegen.",
        "sk": "{name} musí byť medzi {min} a {max} (vrátane).",
    },
    "not_one_of": {
        "en": "{name} is not one of {choices}.",
        "de": "{name} ist keiner der Werte {choices}.",
        "sk": "{name} nie je žiadna z hodnôt {choices}.",
    },
    "not_a_number": {
        "en": "{name} is not a number.",
        "de": "{name} ist keine Zahl.",
        "sk": "{name} nie je číslo.",
    },
    "not_empty": {
        "en": "{name} must not be empty.",
        "de": "{name} darf nicht leer sein.",
        "sk": "{name} nesmie byť prázdne.",
    },
    "not_text": {
        "en": "{name} must be a text.",
        "de": "{name} muss ein Text sein.",
        "sk": "{name} musí byť text.",
    },
    "not_a_list": {
        "en": "{name} must be a list: an array, or values separated by commas.",
        "de": "{name} muss eine Liste sein: ein Array oder durch Kommas getrennte Werte.",
        "sk": "{name} musí byť zoznam: pole alebo hodnoty oddelené čiarkami.",
    },
    "nul_character": {
        "en": "{name} must not contain a NUL character.",
        "de": "{name} darf kein NUL-Zeichen enthalten.",
        "sk": "{name} nesmie obsahovať znak NUL.",
    },
    "only_markup": {
        "en": "{name} must contain text, not only markup.",
        "de": "{name} muss Text enthalten, nicht nur Markup.",
        "sk": "{name} musí obsahovať text, nie iba značky.",
    },
    "bad_date": {
        "en": "{name} is not a date. Accepted: Y-m-d H:i:s, Y-m-d, ISO 8601 (an offset is "
        "honoured), a Unix timestamp, or a relative form such as 'tomorrow 9am' or '+5 days'.",
        "de": "{name} ist kein Datum. Möglich sind: Y-m-d H:i:s, Y-m-d, ISO 8601 (ein Versatz "
        "wird beachtet), ein Unix-Zeitstempel oder eine relative Angabe wie 'tomorrow 9am' "
        "oder '+5 days'.",
        "sk": "{name} nie je dátum. Prípustné sú: Y-m-d H:i:s, Y-m-d, ISO 8601 (posun sa "
        "zohľadní), unixová časová pečiatka alebo relatívny tvar ako 'tomorrow 9am' či "
        "'+5 days'.",
    },
    "bad_timezone": {
        "en": "{name} is not a time zone: use an IANA name such as Europe/Berlin, UTC, or an "
        "offset such as UTC+2 or UTC-05:30.",
        "de": "{name} ist keine Zeitzone: einen IANA-Namen wie Europe/Berlin, UTC oder einen "
        "Versatz wie UTC+2 oder UTC-05:30 verwenden.",
        "sk": "{name} nie je časové pásmo: použite názov IANA ako Europe/Berlin, UTC alebo "
        "posun ako UTC+2 či UTC-05:30.",
    },
    "end_before_start": {
        "en": "end_date ({end}) is before start_date ({start}).",
        "de": "end_date ({end}) liegt vor start_date ({start}).",
        "sk": "end_date ({end}) je pred start_date ({start}).",
    },
    "unknown_ids": {
        "en": "{name}: no {kind} with ID {ids}.",
        "de": "{name}: {kind} mit der ID {ids} existiert nicht.",
        "sk": "{name}: {kind} s ID {ids} neexistuje.",
    },
    "unknown_terms": {
        "en": "{name}: no {kind} with the ID or slug {refs}.",
        "de": "{name}: {kind} mit der ID oder Kurzform {refs} existiert nicht.",
        "sk": "{name}: {kind} s ID alebo slugom {refs} neexistuje.",
    },
    "kind_venue": {"en": "venue", "de": "Veranstaltungsort", "sk": "miesto konania"},
    "kind_organizer": {"en": "organizer", "de": "Veranstalter", "sk": "organizátor"},
    "kind_category": {"en": "category", "de": "Kategorie", "sk": "kategória"},
    "kind_tag": {"en": "tag", "de": "Schlagwort", "sk": "štítok"},
    "kind_event": {"en": "event", "de": "Veranstaltung", "sk": "podujatie"},
    "cannot_create_terms": {
        "en": "{name}: {refs} not found, and you may not create new terms.",
        "de": "{name}: {refs} nicht gefunden, und du darfst keine neuen Begriffe anlegen.",
        "sk": "{name}: {refs} sa nenašlo a nové termíny vytvárať nemôžete.",
    },
    "unknown_event": {
        "en": "{name}: no event with ID {id} that you may see.",
        "de": "{name}: keine für dich sichtbare Veranstaltung mit der ID {id}.",
        "sk": "{name}: žiadne podujatie s ID {id}, ktoré môžete vidieť.",
    },
    "unknown_user": {
        "en": "{name}: no user with ID {id}.",
        "de": "{name}: kein Benutzer mit der ID {id}.",
        "sk": "{name}: žiadny používateľ s ID {id}.",
    },
    "status_publish_only": {
        "en": "status: you may only list published records (publish).",
        "de": "status: du darfst nur veröffentlichte Einträge auflisten (publish).",
        "sk": "status: môžete zobraziť iba zverejnené záznamy (publish).",
    },
    "one_venue": {
        "en": 'venue takes one venue (an ID, an {{"id": ...}} object or an inline venue), '
        "not a list of {count}.",
        "de": 'venue nimmt einen Veranstaltungsort (eine ID, ein {{"id": ...}}-Objekt oder '
        "einen eingebetteten Ort), keine Liste von {count}.",
        "sk": 'venue berie jedno miesto konania (ID, objekt {{"id": ...}} alebo vložené '
        "miesto), nie zoznam {count}.",
    },
    "bad_link": {
        "en": '{name} must be an ID, an {{"id": ...}} object or an inline record with a {field}.',
        "de": '{name} muss eine ID, ein {{"id": ...}}-Objekt oder ein eingebetteter Eintrag '
        "mit {field} sein.",
        "sk": '{name} musí byť ID, objekt {{"id": ...}} alebo vložený záznam s {field}.',
    },
    "inline_invalid": {
        "en": "{name}: the inline record is invalid: {reason}",
        "de": "{name}: der eingebettete Eintrag ist ungültig: {reason}",
        "sk": "{name}: vložený záznam je neplatný: {reason}",
    },
    "bad_image": {
        "en": "image must be the ID of an existing image or an http(s) URL; empty clears it.",
        "de": "image muss die ID eines vorhandenen Bildes oder eine http(s)-URL sein; leer "
        "entfernt es.",
        "sk": "image musí byť ID existujúceho obrázka alebo URL http(s); prázdna hodnota ho "
        "odstráni.",
    },
    "bad_url": {
        "en": "{name} must be an http(s) URL, or empty.",
        "de": "{name} muss eine http(s)-URL oder leer sein.",
        "sk": "{name} musí byť URL http(s) alebo prázdne.",
    },
    "bad_cost": {
        "en": "cost must be a text, a number or a list of those.",
        "de": "cost muss ein Text, eine Zahl oder eine Liste davon sein.",
        "sk": "cost musí byť text, číslo alebo ich zoznam.",
    },
    "slug_taken": {
        "en": "slug {slug} is already taken by another term of this taxonomy.",
        "de": "Die Kurzform {slug} ist bereits an einen anderen Begriff dieser Taxonomie vergeben.",
        "sk": "Slug {slug} už používa iný termín tejto taxonómie.",
    },
    "unknown_slug": {
        "en": "{name}: no record with the slug {slug}.",
        "de": "{name}: kein Eintrag mit der Kurzform {slug}.",
        "sk": "{name}: žiadny záznam so slugom {slug}.",
    },
    "bad_sync_token": {
        "en": "since is not a token of this feed: send the next_since of an earlier answer "
        "unchanged, or no since to start from now.",
        "de": "since ist kein Token dieses Feeds: das next_since einer früheren Antwort "
        "unverändert senden, oder kein since, um jetzt zu beginnen.",
        "sk": "since nie je token tohto kanála: pošlite nezmenené next_since z predošlej "
        "odpovede, alebo žiadne since, ak chcete začať odteraz.",
    },
    "invalid_value": {
        "en": "{name} is not valid: {reason}.",
        "de": "{name} ist ungültig: {reason}.",
        "sk": "{name} nie je platné: {reason}.",
    },
    "at_most": {
        "en": "{name} must be less than or equal to {max}.",
        "de": "{name} muss kleiner oder gleich {max} sein.",
        "sk": "{name} musí byť menšie alebo rovné {max}.",
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
    "json_syntax": {
        "en": "Invalid JSON body passed: {error} at line {line}, column {column}.",
        "de": "Ungültiger JSON-Inhalt übergeben: {error} in Zeile {line}, Spalte {column}.",
        "sk": "Bolo odoslané neplatné telo JSON: {error} na riadku {line}, stĺpec {column}.",
    },
    "json_not_object": {
        "en": 'The JSON body must be an object of parameters ({{"name": value, ...}}), not {kind}.',
        "de": 'Der JSON-Inhalt muss ein Objekt aus Parametern sein ({{"name": Wert, ...}}), '
        "nicht {kind}.",
        "sk": 'Telo JSON musí byť objekt s parametrami ({{"názov": hodnota, ...}}), nie {kind}.',
    },
    "json_array": {"en": "an array", "de": "ein Array", "sk": "pole"},
    "json_string": {"en": "a string", "de": "eine Zeichenkette", "sk": "reťazec"},
    "json_boolean": {"en": "a boolean", "de": "ein Wahrheitswert", "sk": "logická hodnota"},
    "json_number": {"en": "a number", "de": "eine Zahl", "sk": "číslo"},
    "json_null": {"en": "null", "de": "null", "sk": "null"},
    "json_too_deep": {
        "en": "The JSON body is nested deeper than {max} levels.",
        "de": "Der JSON-Inhalt ist tiefer als {max} Ebenen verschachtelt.",
        "sk": "Telo JSON je vnorené hlbšie ako {max} úrovní.",
    },
    "form_not_utf8": {
        "en": "The form body is not valid UTF-8.",
        "de": "Der Formularinhalt ist kein gültiges UTF-8.",
        "sk": "Telo formulára nie je platné UTF-8.",
    },
    "rest_invalid_body": {
        "en": "The request body could not be read.",
        "de": "Der Anfrageinhalt konnte nicht gelesen werden.",
        "sk": "Telo požiadavky sa nepodarilo prečítať.",
    },
    "rest_too_many_params": {
        "en": "The request has too many parameters: at most {max} in the query string and "
        "{max} in the body.",
        "de": "Die Anfrage hat zu viele Parameter: höchstens {max} im Query-String und {max} "
        "im Inhalt.",
        "sk": "Požiadavka má priveľa parametrov: najviac {max} v reťazci dopytu a {max} v tele.",
    },
    "too_many_repeats": {
        "en": "The parameter {name} is given more than {max} times.",
        "de": "Der Parameter {name} wird mehr als {max}-mal angegeben.",
        "sk": "Parameter {name} je zadaný viac ako {max}-krát.",
    },
    "json_read_as_form": {
        "en": "Missing parameter(s): {names}. The body looks like JSON but was read as a "
        "form, because its Content-Type is {content_type} (curl -d sends "
        "application/x-www-form-urlencoded): send Content-Type: application/json.",
        "de": "Fehlende(r) Parameter: {names}. Der Inhalt sieht wie JSON aus, wurde aber als "
        "Formular gelesen, weil sein Content-Type {content_type} ist (curl -d sendet "
        "application/x-www-form-urlencoded): Content-Type: application/json senden.",
        "sk": "Chýbajúce parametre: {names}. Telo vyzerá ako JSON, ale bolo prečítané ako "
        "formulár, lebo jeho Content-Type je {content_type} (curl -d posiela "
        "application/x-www-form-urlencoded): pošlite Content-Type: application/json.",
    },
    "json_read_as_form_body": {
        "en": "The body looks like JSON but was read as a form, because its Content-Type is "
        "{content_type} (curl -d sends application/x-www-form-urlencoded): send "
        "Content-Type: application/json. Nothing was written.",
        "de": "Der Inhalt sieht wie JSON aus, wurde aber als Formular gelesen, weil sein "
        "Content-Type {content_type} ist (curl -d sendet application/x-www-form-urlencoded): "
        "Content-Type: application/json senden. Es wurde nichts geschrieben.",
        "sk": "Telo vyzerá ako JSON, ale bolo prečítané ako formulár, lebo jeho Content-Type "
        "je {content_type} (curl -d posiela application/x-www-form-urlencoded): pošlite "
        "Content-Type: application/json. Nič sa nezapísalo.",
    },
    "no_content_type": {"en": "missing", "de": "nicht angegeben", "sk": "neuvedený"},
    "forbidden_for_role": {
        "en": "Sorry, you are not allowed to do that: {login} is {rights}.",
        "de": "Du bist leider nicht berechtigt, dies zu tun: {login} ist {rights}.",
        "sk": "Prepáčte, na túto akciu nemáte oprávnenie: {login} je {rights}.",
    },
    "rights_administrator": {
        "en": "an administrator, who manages everything",
        "de": "ein Administrator, der alles verwaltet",
        "sk": "administrátor, ktorý spravuje všetko",
    },
    "rights_editor": {
        "en": "an editor, who manages everything",
        "de": "ein Redakteur, der alles verwaltet",
        "sk": "editor, ktorý spravuje všetko",
    },
    "rights_author": {
        "en": "an author, who publishes and manages their own records and manages categories",
        "de": "ein Autor, der eigene Einträge veröffentlicht und verwaltet und Kategorien "
        "verwaltet",
        "sk": "autor, ktorý publikuje a spravuje vlastné záznamy a spravuje kategórie",
    },
    "rights_contributor": {
        "en": "a contributor, who writes their own records, unpublished (an editor publishes them)",
        "de": "ein Mitarbeiter, der eigene Einträge unveröffentlicht schreibt (ein Redakteur "
        "veröffentlicht sie)",
        "sk": "prispievateľ, ktorý píše vlastné záznamy, nepublikované (publikuje ich editor)",
    },
    "rights_subscriber": {
        "en": "a subscriber, who can only read",
        "de": "ein Abonnent, der nur lesen kann",
        "sk": "odberateľ, ktorý môže iba čítať",
    },
    "forbidden_needs": {
        "en": "{need}; {login} is {role}.",
        "de": "{need}; {login} ist {role}.",
        "sk": "{need}; {login} je {role}.",
    },
    "role_administrator": {
        "en": "an administrator",
        "de": "ein Administrator",
        "sk": "administrátor",
    },
    "role_editor": {"en": "an editor", "de": "ein Redakteur", "sk": "editor"},
    "role_author": {"en": "an author", "de": "ein Autor", "sk": "autor"},
    "role_contributor": {"en": "a contributor", "de": "ein Mitarbeiter", "sk": "prispievateľ"},
    "role_subscriber": {"en": "a subscriber", "de": "ein Abonnent", "sk": "odberateľ"},
    "need_posts": {
        "en": "Events, venues, organizers and media are written by contributors, authors, "
        "editors and administrators",
        "de": "Veranstaltungen, Orte, Veranstalter und Medien schreiben Mitarbeiter, Autoren, "
        "Redakteure und Administratoren",
        "sk": "Podujatia, miesta, organizátorov a médiá píšu prispievatelia, autori, editori "
        "a administrátori",
    },
    "need_others_records": {
        "en": "Other people's records are changed by editors and administrators",
        "de": "Einträge anderer ändern Redakteure und Administratoren",
        "sk": "Záznamy iných ľudí menia editori a administrátori",
    },
    "need_published_records": {
        "en": "Published records are changed by authors (their own), editors and administrators",
        "de": "Veröffentlichte Einträge ändern Autoren (die eigenen), Redakteure und "
        "Administratoren",
        "sk": "Publikované záznamy menia autori (vlastné), editori a administrátori",
    },
    "need_give_records": {
        "en": "Records are given to another user by editors and administrators",
        "de": "Einträge einem anderen Benutzer geben Redakteure und Administratoren",
        "sk": "Záznamy inému používateľovi dávajú editori a administrátori",
    },
    "need_others_media": {
        "en": "Other people's media are managed by editors and administrators",
        "de": "Medien anderer verwalten Redakteure und Administratoren",
        "sk": "Médiá iných ľudí spravujú editori a administrátori",
    },
    "need_categories": {
        "en": "Categories are managed by authors, editors and administrators",
        "de": "Kategorien verwalten Autoren, Redakteure und Administratoren",
        "sk": "Kategórie spravujú autori, editori a administrátori",
    },
    "need_tags": {
        "en": "Tags are managed by editors and administrators",
        "de": "Schlagwörter verwalten Redakteure und Administratoren",
        "sk": "Štítky spravujú editori a administrátori",
    },
    "need_webhooks": {
        "en": "Webhooks are managed by administrators",
        "de": "Webhooks verwalten Administratoren",
        "sk": "Webhooky spravujú administrátori",
    },
    "pages_of": {
        "en": "{message}: the list has {pages} page(s) of {per_page} (total_pages).",
        "de": "{message}: die Liste hat {pages} Seite(n) zu {per_page} (total_pages).",
        "sk": "{message}: zoznam má {pages} stranu (strany) po {per_page} (total_pages).",
    },
    "rest_forbidden": {
        "en": "Sorry, you are not allowed to do that.",
        "de": "Du bist leider nicht berechtigt, dies zu tun.",
        "sk": "Prepáčte, na túto akciu nemáte oprávnenie.",
    },
    "sign_in_needed": {
        "en": "Sorry, you are not allowed to do that without signing in: send a user's "
        "application password, as HTTP Basic (login:password) or Authorization: Bearer.",
        "de": "Das ist ohne Anmeldung leider nicht erlaubt: das Anwendungspasswort eines "
        "Benutzers senden, als HTTP Basic (Login:Passwort) oder Authorization: Bearer.",
        "sk": "Bez prihlásenia to, žiaľ, nie je dovolené: pošlite aplikačné heslo "
        "používateľa ako HTTP Basic (login:heslo) alebo Authorization: Bearer.",
    },
    "invalid_username": {
        "en": "Unknown username. Check the login that goes with the application password.",
        "de": "Unbekannter Benutzername. Bitte den Login zum Anwendungspasswort prüfen.",
        "sk": "Neznáme používateľské meno. Skontrolujte login k aplikačnému heslu.",
    },
    "malformed_position": {
        "en": "The X-Almanac-Position header is malformed: send back the value a write "
        "answered with (a WAL position such as 0/16B3748), or leave it out.",
        "de": "Der Header X-Almanac-Position ist fehlerhaft: den Wert zurücksenden, mit dem "
        "ein Schreibzugriff beantwortet wurde (eine WAL-Position wie 0/16B3748), oder "
        "ihn weglassen.",
        "sk": "Hlavička X-Almanac-Position je chybná: pošlite späť hodnotu, ktorou odpovedal "
        "zápis (pozíciu WAL, napríklad 0/16B3748), alebo ju vynechajte.",
    },
    "malformed_idempotency_key": {
        "en": "The Idempotency-Key header must be 1 to 255 printable ASCII characters.",
        "de": "Der Header Idempotency-Key muss aus 1 bis 255 druckbaren ASCII-Zeichen bestehen.",
        "sk": "Hlavička Idempotency-Key musí mať 1 až 255 tlačiteľných znakov ASCII.",
    },
    "malformed_authorization": {
        "en": "The Authorization header is malformed: send Basic with base64 of "
        "login:password, or Bearer with the application password.",
        "de": "Der Authorization-Header ist fehlerhaft: Basic mit base64 von Login:Passwort "
        "oder Bearer mit dem Anwendungspasswort senden.",
        "sk": "Hlavička Authorization je chybná: pošlite Basic s base64 z login:heslo alebo "
        "Bearer s aplikačným heslom.",
    },
    "wrong_credentials": {
        "en": "The login or the application password is wrong.",
        "de": "Der Login oder das Anwendungspasswort ist falsch.",
        "sk": "Login alebo aplikačné heslo je nesprávne.",
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
    "rest-webhook-not-found": {
        "en": "Webhook subscription with ID {id} does not exist.",
        "de": "Das Webhook-Abonnement mit der ID {id} existiert nicht.",
        "sk": "Odber webhookov s ID {id} neexistuje.",
    },
    "rest-webhook-delivery-not-found": {
        "en": "Webhook delivery with ID {id} does not exist.",
        "de": "Die Webhook-Zustellung mit der ID {id} existiert nicht.",
        "sk": "Doručenie webhooku s ID {id} neexistuje.",
    },
    "webhook_url_refused": {
        "en": "{name} cannot receive webhooks: {reason}.",
        "de": "{name} kann keine Webhooks empfangen: {reason}.",
        "sk": "{name} nemôže prijímať webhooky: {reason}.",
    },
    "rest-event-not-found": {
        "en": "Event with ID {id} does not exist.",
        "de": "Die Veranstaltung mit der ID {id} existiert nicht.",
        "sk": "Podujatie s ID {id} neexistuje.",
    },
    "occurrence_not_found": {
        "en": "The event {slug} has no date on {day}.",
        "de": "Die Veranstaltung {slug} findet am {day} nicht statt.",
        "sk": "Podujatie {slug} nemá termín {day}.",
    },
    "series_field": {
        "en": "{name} belongs to the whole series: one date changes only its title, "
        "description, excerpt, dates, venue, organizers or cost. Send scope=all or "
        "scope=following to change {name}.",
        "de": "{name} gehört zur ganzen Serie: Ein einzelner Termin ändert nur Titel, "
        "Beschreibung, Auszug, Daten, Veranstaltungsort, Veranstalter oder Kosten. Senden Sie "
        "scope=all oder scope=following, um {name} zu ändern.",
        "sk": "{name} patrí celej sérii: jeden termín mení iba názov, popis, úryvok, dátumy, "
        "miesto, organizátorov alebo cenu. Na zmenu {name} pošlite scope=all alebo "
        "scope=following.",
    },
    "recurrence_bad_line": {
        "en": "{name}: cannot read the line '{line}'. Each line is an RFC 5545 RRULE, RDATE "
        "or EXDATE, e.g. RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.",
        "de": "{name}: Die Zeile '{line}' ist nicht lesbar. Jede Zeile ist ein RRULE, RDATE "
        "oder EXDATE nach RFC 5545, z. B. RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.",
        "sk": "{name}: riadok '{line}' sa nedá prečítať. Každý riadok je RRULE, RDATE alebo "
        "EXDATE podľa RFC 5545, napr. RRULE:FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270630T000000Z.",
    },
    "recurrence_too_frequent": {
        "en": "{name}: '{line}' repeats more often than hourly; the shortest step is FREQ=HOURLY.",
        "de": "{name}: '{line}' wiederholt sich öfter als stündlich; der kürzeste Schritt ist "
        "FREQ=HOURLY.",
        "sk": "{name}: '{line}' sa opakuje častejšie než každú hodinu; najkratší krok je "
        "FREQ=HOURLY.",
    },
    "recurrence_empty_rule": {
        "en": "{name}: '{line}' yields no date after the event's start.",
        "de": "{name}: '{line}' ergibt keinen Termin nach dem Beginn der Veranstaltung.",
        "sk": "{name}: '{line}' nedáva žiadny termín po začiatku podujatia.",
    },
    "recurrence_empty": {
        "en": "{name} leaves the series without any date (its EXDATEs remove them all).",
        "de": "{name} lässt der Serie keinen Termin (ihre EXDATEs entfernen alle).",
        "sk": "{name} nenecháva sérii žiadny termín (jej EXDATE ich odstránia všetky).",
    },
    "recurrence_too_many": {
        "en": "{name} takes at most {max} lines, and {max} dates per line.",
        "de": "{name} nimmt höchstens {max} Zeilen und {max} Daten pro Zeile.",
        "sk": "{name} prijme najviac {max} riadkov a {max} dátumov na riadok.",
    },
    "recurrence_bad_interval": {
        "en": "{name}: '{line}' needs an INTERVAL from 1 to {max}; 0 never moves on to the "
        "next date.",
        "de": "{name}: '{line}' braucht ein INTERVAL von 1 bis {max}; mit 0 käme nie der "
        "nächste Termin.",
        "sk": "{name}: '{line}' potrebuje INTERVAL od 1 do {max}; s 0 by nikdy neprišiel "
        "ďalší termín.",
    },
    "recurrence_too_dense": {
        "en": "{name}: '{line}' gives more than {max} dates a day (BYHOUR × BYMINUTE × "
        "BYSECOND); a series repeats at most hourly.",
        "de": "{name}: '{line}' ergibt mehr als {max} Termine am Tag (BYHOUR × BYMINUTE × "
        "BYSECOND); eine Serie wiederholt sich höchstens stündlich.",
        "sk": "{name}: '{line}' dáva viac než {max} termínov za deň (BYHOUR × BYMINUTE × "
        "BYSECOND); séria sa opakuje najviac každú hodinu.",
    },
    "recurrence_too_many_rules": {
        "en": "{name} takes at most {max} RRULE lines.",
        "de": "{name} nimmt höchstens {max} RRULE-Zeilen.",
        "sk": "{name} prijme najviac {max} riadkov RRULE.",
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
    "rest_idempotency_key_reused": {
        "en": "This Idempotency-Key was used for another request in the last 24 hours. "
        "Send a new key with each new create, and the same key only to retry it unchanged.",
        "de": "Dieser Idempotency-Key wurde in den letzten 24 Stunden für eine andere Anfrage "
        "verwendet. Für jedes neue Anlegen einen neuen Schlüssel senden und denselben nur, "
        "um es unverändert zu wiederholen.",
        "sk": "Tento Idempotency-Key bol za posledných 24 hodín použitý pre inú požiadavku. "
        "Ku každému novému vytvoreniu pošlite nový kľúč a ten istý len pri jeho nezmenenom "
        "opakovaní.",
    },
    "too_many_guesses": {
        "en": "Too many wrong passwords. Try again later.",
        "de": "Zu viele falsche Passwörter. Bitte später erneut versuchen.",
        "sk": "Príliš veľa nesprávnych hesiel. Skúste to neskôr.",
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
    # ---- the media library (app/media/) ----
    "rest-media-not-found": {
        "en": "Media with ID {id} does not exist.",
        "de": "Die Mediendatei mit der ID {id} existiert nicht.",
        "sk": "Mediálny súbor s ID {id} neexistuje.",
    },
    "media-archive-page-not-found": {
        "en": "The requested media page does not exist",
        "de": "Die angeforderte Seite der Mediathek existiert nicht",
        "sk": "Požadovaná stránka knižnice médií neexistuje",
    },
    "rest_upload_no_data": {
        "en": "No data supplied: send the image as the multipart field file, or as the body.",
        "de": "Keine Daten: das Bild als Multipart-Feld file oder als Anfrageinhalt senden.",
        "sk": "Žiadne údaje: obrázok pošlite ako pole multipart file alebo ako telo požiadavky.",
    },
    "rest_upload_no_content_disposition": {
        "en": "Missing Content-Disposition header (attachment; filename=...).",
        "de": "Der Header Content-Disposition fehlt (attachment; filename=...).",
        "sk": "Chýba hlavička Content-Disposition (attachment; filename=...).",
    },
    "rest_upload_file_too_big": {
        "en": "The file is larger than the upload limit of {max} bytes.",
        "de": "Die Datei ist größer als die Obergrenze von {max} Bytes.",
        "sk": "Súbor je väčší ako limit {max} bajtov.",
    },
    "rest_upload_invalid_image": {
        "en": "The file was not accepted: {reason}",
        "de": "Die Datei wurde nicht angenommen: {reason}",
        "sk": "Súbor nebol prijatý: {reason}",
    },
    "media_not_an_image": {
        "en": "it is not an image of an accepted type (JPEG, PNG, GIF, WebP or AVIF).",
        "de": "sie ist kein Bild eines angenommenen Typs (JPEG, PNG, GIF, WebP oder AVIF).",
        "sk": "nie je to obrázok prijatého typu (JPEG, PNG, GIF, WebP alebo AVIF).",
    },
    "media_too_many_pixels": {
        "en": "the image has more than {max} pixels.",
        "de": "das Bild hat mehr als {max} Pixel.",
        "sk": "obrázok má viac ako {max} pixelov.",
    },
    "media_broken_image": {
        "en": "the image is truncated or damaged.",
        "de": "das Bild ist abgeschnitten oder beschädigt.",
        "sk": "obrázok je neúplný alebo poškodený.",
    },
    "rest_upload_not_stored": {
        "en": "The image could not be stored; nothing of it was kept.",
        "de": "Das Bild konnte nicht gespeichert werden; nichts davon wurde behalten.",
        "sk": "Obrázok sa nepodarilo uložiť; nič z neho sa neuchovalo.",
    },
    "cannot_set_status": {
        "en": "Sorry, you are not allowed to give this post the status {status}: a "
        "contributor's records are draft or pending until an editor publishes them.",
        "de": "Sie dürfen diesem Beitrag den Status {status} nicht geben: Die Einträge "
        "eines Mitarbeiters sind Entwurf oder ausstehend, bis ein Redakteur sie veröffentlicht.",
        "sk": "Tomuto príspevku nemôžete dať stav {status}: záznamy prispievateľa sú koncept "
        "alebo čakajúce, kým ich redaktor nezverejní.",
    },
    "rest_cannot_upload": {
        "en": "Sorry, you may upload images only for a draft of your own (name it with post).",
        "de": "Sie dürfen Bilder nur für einen eigenen Entwurf hochladen (mit post angeben).",
        "sk": "Obrázky môžete nahrávať len pre vlastný koncept (uveďte ho v post).",
    },
    "rest_media_in_use": {
        "en": "The image is shown by {count} record(s); delete with force=true to remove it "
        "from them too.",
        "de": "Das Bild wird von {count} Eintrag/Einträgen gezeigt; mit force=true löschen, "
        "um es auch dort zu entfernen.",
        "sk": "Obrázok zobrazuje {count} záznam(ov); odstráňte ho s force=true, aby zmizol "
        "aj z nich.",
    },
    "not_a_post": {
        "en": "{name} must be the ID of an event, venue or organizer.",
        "de": "{name} muss die ID einer Veranstaltung, eines Ortes oder eines Veranstalters sein.",
        "sk": "{name} musí byť ID podujatia, miesta konania alebo organizátora.",
    },
}


def translate(key: str, language: str, **values: object) -> str:
    """The message `key` in `language` (English when missing), formatted with `values`."""
    templates = MESSAGES.get(key)
    if templates is None:
        return key
    template = templates.get(language) or templates["en"]
    if not values:
        return template
    # A value may itself be a message (a note inside a note): rendered in the same language.
    rendered = {
        name: translate(value[0], language, **value[1]) if _is_message(value) else value
        for name, value in values.items()
    }
    return template.format(**rendered)


def _is_message(value: object) -> TypeGuard[tuple[str, dict[str, object]]]:
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], str)
        and isinstance(value[1], dict)
    )
