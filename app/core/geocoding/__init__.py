"""The client of a geocoding service that the site chose (GEOCODER_URL): infrastructure,
like the database, which the app's services hold."""
