"""The loops: a turn (``turn.py``), whole deals and games (``deals.py``), the search player
(``search.py``), the one entry kernel for every task (``tasks.py``) and a deal stopped
between turns (``midgame.py``)."""
