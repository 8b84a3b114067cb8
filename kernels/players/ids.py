"""The built-in players' ids: the closed registry the switch tests (STYLE.md 4).

A seat's policy is one int64 in the policy table (kernels/players/user.py); these are the
values.  canasta_sim/policies.py maps each name to its id, its parameters and its words.
"""
POLICY_RANDOM = 0                # kernels/players/random.py
POLICY_GREEDY = 1                # kernels/players/greedy.py
POLICY_CAREFUL = 2               # the club players of kernels/players/club.py
POLICY_RUSH = 3
POLICY_BUILDER = 4
POLICY_EXPERT = 5
POLICY_NAMES = ("random", "greedy", "careful", "rush", "builder", "expert")
POLICY_USER = 6                  # a user's own policy, called through kernels/players/user.py
POLICY_SEARCH = 7                # the search player (kernels/play/search.py), blueprint expert
