"""Modern American Canasta (``family=modern_american``, docs/american.md): the family's rule
pieces, each a small jitted function tested alone (tests/test_american_rules.py).  They share
with classic only what the games share (the deck, the shuffle, card values, the minimum table);
classic's kernels never import this package."""
