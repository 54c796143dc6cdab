"""almanac: an events calendar HTTP API mirroring The Events Calendar REST v1."""

from importlib.metadata import PackageNotFoundError, version

try:
    # One version everywhere: the package's (pyproject.toml), shown by the docs page and the
    # API description.
    VERSION = version("almanac")
except PackageNotFoundError:  # run from a checkout that was never installed
    VERSION = "0+unknown"
