"""Jitted kernels of canasta-sim (import name ``canasta_sim.kernels``).

Only numba code and the plain constants it needs live here; the Python face
(rule sets, runner, Parquet, CLI) lives in ``canasta_sim``.
"""
