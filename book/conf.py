"""Sphinx configuration of the tdbook book.

`make book` (python -m tdbook.book) assembles the sources under build/book-src/ — the stored notebooks as
chapters, the pages of this folder, the generated scoreboard and package reference — and runs Sphinx with this
configuration (-c book), warnings as errors, into build/book/.  The notebooks are rendered as stored, never run.
"""

from tdbook import __version__
from tdbook.book.anchors import HEADING_ANCHORS, MYST_EXTENSIONS
from tdbook.book.sphinxext import MATHJAX_CONFIG, MATHJAX_PATH

project = "tdbook"
author = "the tdbook contributors"
copyright = "the tdbook contributors, MIT licence"
release = version = __version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinxcontrib.bibtex",
    "tdbook.book.sphinxext",
]
root_doc = "index"
exclude_patterns = ["**.ipynb_checkpoints"]

# The chapters are the stored notebooks, shown with the outputs of their last recorded run.
nb_execution_mode = "off"
nb_output_stderr = "remove"  # the stored notebooks keep none; a stray one is not the record
nb_merge_streams = True
# A markdown output (chapter 00's table of notebooks) is MyST, as the cells are: tables render, and its links to
# other chapters (``01_signature_tables.ipynb``) become links to their pages.
nb_render_markdown_format = "myst"
myst_enable_extensions = list(MYST_EXTENSIONS)
myst_dmath_double_inline = True
myst_heading_anchors = HEADING_ANCHORS  # the scoreboard links to these (tdbook.book.anchors computes the same)

# Math: MathJax shipped with the site (tdbook.book.sphinxext copies it into _static/), never fetched from a network.
mathjax_path = MATHJAX_PATH
mathjax2_config = MATHJAX_CONFIG

# The package reference: docstrings, in source order.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True}

# The bibliography: book/references.bib, generated from REFERENCES.md (make bib).
bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "tdbook"
bibtex_reference_style = "label"

html_theme = "sphinx_book_theme"
html_title = "tdbook"
html_static_path = ["_static"]
html_theme_options = {
    "show_toc_level": 2,
    "navigation_with_keys": False,
    "use_download_button": True,  # each chapter offers its notebook (.ipynb) as stored
    "navbar_persistent": [],  # one search box (the sidebar's), not a second one in a header bar above it
}
html_context = {"default_mode": "auto"}  # the light/dark switch starts from the reader's system setting
html_favicon = "_static/favicon.svg"
html_last_updated_fmt = None
