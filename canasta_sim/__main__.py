"""``python -m canasta_sim`` runs the command-line interface."""
from canasta_sim.cli import main

main()
