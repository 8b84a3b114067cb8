"""``python -m benchmarks`` from the repository root: the same as ``canasta-sim bench``."""
import sys

from canasta_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
