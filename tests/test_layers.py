"""The whole package's layers, counted (issue 34, item 4): no module imports up a layer at run
time but the ones named here, and no modules import one another in a circle but the ones named
here, each a debt with its reason.  A new one fails; one paid off fails too, until it is struck
from the list (the count only goes down).  The layers: tests/support/imports.py
(``python tests/support/imports.py`` prints the graph docs/architecture.md draws)."""

from __future__ import annotations

from support.imports import LAYERS, MODULES, circles, graph, imported, layer, part, upward

#: Run-time imports that run up a layer, and why they still do.
KNOWN_UPWARD = [
    # A club night's reachable addresses are the web server's (the app's server package).
    "scorepad.club.reach -> scorepad.app.server.share",
    # `scorepad copy` copies the club nights too, which the club's store keeps (in a function).
    "scorepad.store.moving -> scorepad.club.store",
]
#: Circles at run time: the phone's build and the web server share the installable app's
#: files; the phone's app starts on the sessions screen, whose backup is the phone's.
KNOWN_RUN_TIME_CIRCLES = [
    ["scorepad.app.frame.screens", "scorepad.app.screens.sessions", "scorepad.phone.app"],
    ["scorepad.app.server.installable", "scorepad.phone.build"],
]
#: And with the imports only the type checker reads: the app's frame (the shell, the
#: navigation, the registry, the family registry and the live sheet name one another's types).
KNOWN_TYPE_CHECK_CIRCLES = sorted(
    [
        *KNOWN_RUN_TIME_CIRCLES,
        [
            "scorepad.app.frame.family",
            "scorepad.app.frame.live",
            "scorepad.app.frame.nav",
            "scorepad.app.frame.registry",
            "scorepad.app.frame.shell",
        ],
    ]
)


def test_the_reader_tells_run_time_imports_from_the_type_checkers() -> None:
    journal = MODULES["scorepad.store.journal"]
    assert "scorepad.scoring.family" in imported(journal, run_time=False)  # under TYPE_CHECKING
    assert "scorepad.scoring.family" not in imported(journal, run_time=True)
    settle = imported(MODULES["scorepad.cli"], run_time=True)
    assert "scorepad.report" in settle  # an import inside a function runs too
    assert "scorepad.cli.common" in settle  # from .common import …
    assert "scorepad.report.ledger" in imported(
        MODULES["scorepad.app.screens.cashout"], run_time=True
    )


def test_the_circle_finder_finds_a_circle() -> None:
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(g) == [["a", "b", "c"]]


def test_every_module_stands_on_one_layer() -> None:
    parts = {part(m) for m in MODULES}
    assert parts == {name for names in LAYERS for name in names}
    assert layer("scorepad.scoring.pulya.legal") < layer("scorepad.play.record")
    assert layer("scorepad.store.journal") < layer("scorepad.report.pulya") < layer("scorepad.app")


def test_no_run_time_import_runs_up_a_layer_but_the_known_ones() -> None:
    assert upward(graph(run_time=True)) == KNOWN_UPWARD


def test_no_circle_at_run_time_but_the_known_ones() -> None:
    assert circles(graph(run_time=True)) == KNOWN_RUN_TIME_CIRCLES


def test_no_circle_for_the_type_checker_but_the_known_ones() -> None:
    assert circles(graph(run_time=False)) == KNOWN_TYPE_CHECK_CIRCLES
