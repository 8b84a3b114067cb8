"""canasta-sim: a numba-based Canasta simulation engine.

Public names: :func:`simulate`, :func:`to_pandas`, :class:`RuleSet`, :func:`parse_rules`,
:class:`BadInput`, ``__version__``.
Heavy modules (numpy, pyarrow, numba) load only when first needed.  Importing the package
changes nothing in the process: numba's settings are left alone (see canasta_sim._cache).
"""
from canasta_sim._lazy import lazy_names

try:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _version

    __version__ = _version("canasta-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"

__all__ = ["simulate", "to_pandas", "RuleSet", "parse_rules", "BadInput", "__version__"]

_LAZY = {
    "simulate": ("canasta_sim.simulation", "simulate"),
    "to_pandas": ("canasta_sim.results", "to_pandas"),
    "RuleSet": ("canasta_sim.rules", "RuleSet"),
    "parse_rules": ("canasta_sim.rules", "parse_rules"),
    "BadInput": ("canasta_sim.errors", "BadInput"),
}


__getattr__, __dir__ = lazy_names("canasta_sim", globals(), _LAZY)
