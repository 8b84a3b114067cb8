"""canasta-sim's own referee: slow, obviously-correct Python versions of the rules
(:mod:`.naive`) and a replay of docs/trace.md traces against them, rule by rule
(:mod:`.replay`).  Neither imports the kernels, so a trace is checked without trusting the
engine.  The tests use both; ``canasta-sim check-policy`` runs the replay on a policy's
traces."""
