"""Who decides: the switch from a seat's policy id to its player (``switch.py``), the
built-in players (``random.py``, ``greedy.py``, ``club.py``), their ids (``ids.py``) and the
seam for a user's own policy (``user.py``).  Players read the rules (kernels/game/), never
the loops."""
