"""The tests' name for :mod:`canasta_sim.referee.naive` (the slow reference of the rules)."""
import sys

from canasta_sim.referee import naive as _naive

sys.modules[__name__] = _naive
