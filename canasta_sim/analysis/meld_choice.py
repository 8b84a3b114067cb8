"""Which meld steps a meld decision values (docs/analysis.md, "Meld steps"), for both
families' analyses; a module of its own so that neither family's analysis imports the
other's (no import circle)."""
from canasta_sim.kernels.play import analysis as k

MAX_MELD_OPTIONS = 8   # meld candidates valued at most: the played step, the policy's, stop,
                       # then the engine's list in its order (docs/analysis.md)


def meld_choice(listed, own, played) -> tuple:
    """The meld candidates valued (docs/analysis.md, "Meld steps"): the step played, the
    policy's own (``own``; NO_STEP: none), stopping when ``listed``, then the rest of
    ``listed`` in its order, at most MAX_MELD_OPTIONS; and whether the played step is one the
    engine lists or the policy takes.  Classic's and Modern American's meld decisions."""
    offered = listed + ([own] if own != k.NO_STEP else [])
    first = [played] + offered[len(listed):] + [c for c in listed if c == k.MELD_STOP]
    cands = list(dict.fromkeys(first))
    for c in listed:
        if len(cands) >= MAX_MELD_OPTIONS:
            break
        if c not in cands:
            cands.append(c)
    return cands, played in offered
