"""The shortcuts taken for speed give what the general code paths give.

``greedy`` discards, surveys the hand and takes the pile through shortcuts (policies.py);
``random`` and the club players discard from the hand without the option list; each is
compared here with the general path it replaces, on random positions.  Whole deals
are compared bit for bit outside the test-suite (a reference file of the kernels' outputs).
"""
import numpy as np
from canasta_sim.kernels import actions, club, plans, policies, rng, state
from canasta_sim.kernels.layout import POLICY_NAMES
from scenario import random_position


def test_greedy_discard_is_the_scored_option_list_pick():
    """greedy_discard_nb = decide_nb(DEC_DISCARD) over discard_options_nb."""
    for seed in range(300):
        pos, _, _ = random_position(seed, "greedy")
        hands, melds = pos.S[0], pos.S[1]
        for seat in range(2):
            n = actions.discard_options_nb(hands[seat], pos.opts)
            if n == 0:
                continue
            i = policies.decide_nb(pos.nb, 1, pos.params[seat], actions.DEC_DISCARD, pos.opts,
                                   n, hands[seat], melds, seat % 2, pos.S[7], 2, pos.S[8][10])
            assert policies.greedy_discard_nb(pos.nb, hands[seat], melds, seat % 2) \
                == pos.opts[i, 1]


def test_random_and_club_discards_are_the_option_list_picks():
    """random_discard_nb = decide_nb(DEC_DISCARD) over discard_options_nb, with the same
    draws from the seat's stream; club_discard_card_nb = club_discard_nb over that list."""
    for seed in range(200):
        policy = ("random", "careful", "rush", "builder", "expert")[seed % 5]
        pos, _, _ = random_position(seed, policy)
        hands, melds, deck, pile, st, seatv, sidev, streams, ws, wm = pos.S
        pid = POLICY_NAMES.index(policy)
        for seat in range(4):
            n = actions.discard_options_nb(hands[seat], pos.opts)
            if n == 0:
                continue
            stream = rng.STREAM_POLICY + seat
            if policy == "random":
                before = streams.copy()
                i = policies.decide_nb(pos.nb, 0, pos.params[seat], actions.DEC_DISCARD,
                                       pos.opts, n, hands[seat], melds, seat % 2, streams,
                                       stream, ws[10])
                after = streams.copy()
                streams[:] = before
                assert policies.random_discard_nb(hands[seat], streams, stream) \
                    == pos.opts[i, 1]
                assert (streams == after).all()
            else:
                i = club.club_discard_nb(pos.nb, hands, melds, pile, st, seatv, sidev,
                                         ws[state.WS_UNSEEN], seat, pid, pos.params[seat],
                                         pos.opts, n)
                assert club.club_discard_card_nb(pos.nb, hands, melds, pile, st, seatv, sidev,
                                                 ws[state.WS_UNSEEN], seat, pid,
                                                 pos.params[seat]) == pos.opts[i, 1]


def test_greedy_survey_matches_the_separate_scans():
    """greedy_ranks_nb's canastas, stray cards and canastas within reach equal canastas_nb,
    unmeldable_cards_nb and canastas_within_reach_nb."""
    rng = np.random.default_rng(5)
    for seed in range(300):
        pos, _, _ = random_position(seed, "greedy")
        hands, melds = pos.S[0], pos.S[1]
        if seed % 2:
            hands[0, 4:] = rng.integers(0, 4, hands.shape[1] - 4)
        if seed % 3 == 0:                   # wild cards on some melds: sizes 6, 7 and more
            melds[:2, :, 1] += (melds[:2, :, 0] >= 4) * rng.integers(0, 3, melds.shape[1])
            state.set_meld_sizes(melds)
        for side in range(2):
            canastas, _, _, _, _, stray, kind, reach = policies.greedy_ranks_nb(
                pos.nb, hands[0], melds, side)
            assert canastas == actions.canastas_nb(melds, side)
            assert (stray, kind) == plans.unmeldable_cards_nb(pos.nb, hands[0], melds, side)
            assert reach == plans.canastas_within_reach_nb(hands[0], melds, side)


def test_meld_sizes_are_kept_with_the_cards():
    """The melds table's M_SIZE column is each meld's naturals + deuces + jokers after the
    engine's own moves (a played deal), and melds_consistent_nb finds a wrong one."""
    from canasta_sim.kernels import tasks

    from canasta_sim.runner import policy_table, prepare

    laid = 0
    for policy in ("random", "greedy", "expert"):
        plan = prepare(1, 7, "classic", policy)
        for deal in range(20):
            S = state.new_state()
            seat = tasks.run(tasks.TASK_UNTIL, plan.rules_nb, policy_table(plan), plan.params,
                             seed=7, first=deal, S=S, turns=12)[0]
            melds = S[1]
            sums = melds[..., state.M_NAT] + melds[..., state.M_DEUCE] + melds[..., state.M_JOKER]
            assert (melds[..., state.M_SIZE] == sums).all(), (policy, deal, seat)
            assert state.melds_consistent_nb(melds)
            laid += int(sums.sum())
    assert laid > 0
    melds[0, 5, state.M_SIZE] += 1
    assert not state.melds_consistent_nb(melds)
