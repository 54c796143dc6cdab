"""The edge's frame: a pipeline of steps around the app, and reads of a raw ASGI scope."""
