"""``python -m tdbook`` — see :mod:`tdbook.cli`."""

import sys

from .cli import main

sys.exit(main())
