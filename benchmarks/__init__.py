"""Benchmarks of canasta-sim: ``python -m benchmarks --help``."""
