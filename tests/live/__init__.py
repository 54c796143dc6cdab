"""The tests against real servers, commands and tools (tests/live/test_*.py). Their
harness, which starts the real `almanac` command and server, private databases and static
sites: harness.py; a headless Chromium and a desk signed in: desk_harness.py."""
