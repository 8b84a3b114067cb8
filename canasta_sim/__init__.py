"""canasta-sim: a numba-based Canasta simulation engine.

Public names: :func:`simulate`, :func:`to_pandas`, :class:`RuleSet`, :func:`parse_rules`,
:class:`BadInput`, ``__version__``.
Heavy modules (numpy, pyarrow, numba) load only when first needed.  Importing the package
changes nothing in the process: numba's settings are left alone (see canasta_sim._cache).
"""
try:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as _version

    __version__ = _version("canasta-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.1.0"

__all__ = ["simulate", "to_pandas", "RuleSet", "parse_rules", "BadInput", "__version__"]

_LAZY = {
    "simulate": ("canasta_sim.runner", "simulate"),
    "to_pandas": ("canasta_sim.results", "to_pandas"),
    "RuleSet": ("canasta_sim.rules", "RuleSet"),
    "parse_rules": ("canasta_sim.rules", "parse_rules"),
    "BadInput": ("canasta_sim.errors", "BadInput"),
}


def __getattr__(name):
    """Import the public names on first use, so ``canasta-sim --help`` stays fast."""
    if name not in _LAZY:
        raise AttributeError(f"module 'canasta_sim' has no attribute {name!r}")
    import importlib

    module_name, attr = _LAZY[name]
    value = getattr(importlib.import_module(module_name), attr)
    globals()[name] = value
    return value


def __dir__():
    """Module attributes including the lazily imported public names."""
    return sorted(set(globals()) | set(_LAZY))
