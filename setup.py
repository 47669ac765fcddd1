"""The build's one compiled part: the double-dummy search (scorepad/play/_dds.c).

Everything else is declared in pyproject.toml.  The extension is optional: without a C
compiler the install still succeeds and the pure-Python search runs
(``scorepad.play.dds.CORE`` says which one does).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "scorepad.play._dds",
            sources=["scorepad/play/_dds.c"],
            optional=True,  # no compiler: skipped with a warning, never a failed install
        )
    ]
)
