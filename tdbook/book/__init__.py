"""The book: the collection as a static site (``make book``, issue 32), built from the stored notebooks.

- :mod:`tdbook.book.build` assembles the sources (``build/book-src/``) and runs Sphinx (``book/conf.py``,
  warnings as errors) into ``build/book/``; ``python -m tdbook.book``.
- :mod:`tdbook.book.anchors` finds where each claim is checked: the recorded cell, its section, its anchor.
- :mod:`tdbook.book.scoreboard` writes the scoreboard page, every claim linked to that section.
- :mod:`tdbook.book.references` generates ``book/references.bib`` from ``REFERENCES.md``.
- :mod:`tdbook.book.api` lays the package reference out by layer, walking the package.
- :mod:`tdbook.book.sphinxext` resolves the notebooks' prose citations ("Powell (2000) §4.3") to the
  bibliography and keeps docstrings from breaking the build.

Needs the ``book`` extra (Sphinx, myst-nb, sphinx-book-theme, sphinxcontrib-bibtex), which ``make venv``
installs.
"""
