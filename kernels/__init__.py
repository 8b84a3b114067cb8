"""Jitted kernels of canasta-sim (import name ``canasta_sim.kernels``).

Three wings, each importing only the ones before it (docs/architecture.md):

* ``game/``: the rules -- cards, the rule record, the deal state, the deal, legal options,
  going-out plans, moves, scoring, trace events.  Never names a player.
* ``players/``: who decides -- the one switch (``players/switch.py``) and the built-in
  players, plus the seam for a user's own policy.
* ``play/``: the loops -- the turn, whole deals and games, the search player, the entry
  task, a deal stopped mid-way.

``jit.py`` says how every kernel is compiled.  Only numba code and the plain constants it
needs live here; the Python face (rule sets, runner, Parquet, CLI) lives in ``canasta_sim``.
"""
