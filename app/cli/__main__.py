"""`python -m app.cli`, as the tests and `make run` start it."""

import sys

from app.cli import main

sys.exit(main())
