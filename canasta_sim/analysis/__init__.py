"""The analysis of played deals (docs/analysis.md): a trace replayed with the engine's moves
(``position``), a position file (``posfile``), the options of a decision valued by rollouts
(``rollout``), a deal's analysis with marks, error rates and luck (``deal``), the game equity
table (``equity``), the viewer page (``viewer``) and the commands (``cli``)."""
