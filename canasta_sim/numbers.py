"""Numbers as short text that reads back exactly (policy parameters, sweep values).

A leaf module: policies, user policies, sweeps, tuning and study specs all write parameter
values with :func:`format_number`, and none of them needs another to do it.
"""
from __future__ import annotations


def format_number(value: float) -> str:
    """A parameter value as short text that reads back exactly: 8, 0.5, 1000003."""
    return f"{value:.17g}" if float(f"{value:.15g}") != value else f"{value:.15g}"
