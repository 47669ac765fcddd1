"""Translation, under its released name: see :mod:`scorepad.core.i18n`.

Every refusal subclasses ``scorepad.i18n.ScorepadError`` (the package's docstring says so), so the
name stays importable here; Scorepad's own modules import :mod:`scorepad.core.i18n`.
"""

from .core.i18n import LANGUAGES, N_, Catalog, Msg, ScorepadError, catalog, msg, nmsg

__all__ = ["LANGUAGES", "N_", "Catalog", "Msg", "ScorepadError", "catalog", "msg", "nmsg"]
