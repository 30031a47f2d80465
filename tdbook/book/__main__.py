"""``python -m tdbook.book`` — see :mod:`tdbook.book.build`."""

from .build import main

raise SystemExit(main())
