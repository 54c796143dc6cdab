"""Places: coordinates, the embedded gazetteer, the optional geocoding service, distances."""
