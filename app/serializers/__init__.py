"""Response bodies as plain dicts in the reference's field order (serialised by orjson)."""
