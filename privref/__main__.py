"""``python -m privref``: the same command line as ``privref``."""

import sys

from .app.cli import main

sys.exit(main())
