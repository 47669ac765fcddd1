"""The build's one compiled part: the double-dummy search (scorepad/play/_dds.c).

Everything else is declared in pyproject.toml.  The extension is optional: without a C
compiler the install still succeeds and the pure-Python search runs
(``scorepad.play.dds.CORE`` says which one does).
"""

from setuptools import Extension, find_namespace_packages, setup

setup(
    # Every folder of the package (its data folders too, as namespaces), and conventions/ and
    # assets/ as scorepad._conventions and scorepad._assets (pyproject.toml maps the folders).
    packages=[
        *find_namespace_packages(include=["scorepad*"], exclude=["*.__pycache__"]),
        "scorepad._conventions",
        "scorepad._assets",
    ],
    ext_modules=[
        Extension(
            "scorepad.play._dds",
            sources=["scorepad/play/_dds.c"],
            optional=True,  # no compiler: skipped with a warning, never a failed install
        )
    ],
)
