"""The Modern American loops: the turn, whole deals and games, the entry task."""
