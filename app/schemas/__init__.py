"""Response schemas for the OpenAPI document. Bodies are built as dicts (app/serializers) for
speed; these models only describe them, and the tests check real responses against them."""
