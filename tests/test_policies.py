"""The scripted policies do what their documentation (kernels/players/greedy.py) says."""
import numpy as np
import pytest
from canasta_sim.kernels.game import options, slots
from canasta_sim.kernels.game.cards import DEUCE, JOKER, TOKEN_TO_KIND
from canasta_sim.kernels.players import greedy, random
from scenario import Position, random_position


def single_card_form(kind, rank, nat, de, jo, opts):
    """The option row of the full list that a greedy (multi-card) step extends."""
    if kind == options.OPT_NEW:
        return (kind, rank, 3, 0, 0) if de + jo == 0 else (kind, rank, 2, de, jo)
    if kind == options.OPT_ADD:
        return (kind, rank, rank if nat else DEUCE if de else JOKER, 0, 0)
    if kind == options.OPT_GO_OUT:
        return next(tuple(int(x) for x in row) for row in opts
                    if row[0] == kind and row[1] == rank)
    return (kind, 0, 0, 0, 0)


def greedy_step_and_options(pos, seat=0):
    hands = pos.S.hands
    melds = pos.S.melds
    pile = pos.S.pile
    st = pos.S.st
    seatv = pos.S.seatv
    ws = pos.S.ws
    step = greedy.greedy_meld_step_nb(pos.nb, st, seatv, hands[seat], melds, pile, seat,
                                        False, pos.plan, ws)
    n = options.meld_options_nb(pos.nb, st, seatv, hands[seat], melds, pile, seat, False,
                                False, pos.opts, pos.plan, ws)
    return step, pos.opts[:n].copy()


@pytest.mark.parametrize("scores", [(0, 0), (1600, 0), (-100, 0), (3000, 0)])
def test_greedy_meld_step_is_a_best_scored_legal_option(scores):
    """greedy's fast walk picks a legal step that the documented scoring ranks highest."""
    checked = 0
    for seed in range(400):
        pos, _, _ = random_position(seed, "greedy")
        if seed % 3 == 0:                       # some positions with an unmelded side 0
            pos.S.melds[0] = 0
            pos.S.sidev[0, slots.SIDE_MELDED] = 0
        for side in (0, 1):
            pos.S.sidev[side, slots.SIDE_MINIMUM] = int(np.select([scores[side] < 0, scores[side] < 1500,
                                               scores[side] < 3000], [15, 50, 90], 120))
        for seat in range(pos.rules.num_players):            # each seat's own minimum (R27)
            pos.S.seatv[seat, slots.SEAT_MINIMUM] = pos.S.sidev[seat % 2, slots.SIDE_MINIMUM]
        pos.begin(0)
        (kind, rank, nat, de, jo), opts = greedy_step_and_options(pos)
        if kind < 0:
            assert len(opts) == 0
            continue
        forms = {tuple(int(x) for x in row) for row in opts}
        form = single_card_form(kind, rank, nat, de, jo, opts)
        assert form in forms, (seed, kind, rank)
        melds = pos.S.melds
        side_scores = [greedy.greedy_option_score_nb(pos.nb, 1, row, melds, 0) for row in opts]
        chosen = np.array(form)
        assert greedy.greedy_option_score_nb(pos.nb, 1, chosen, melds, 0) \
            == max(side_scores), (seed, kind, rank, opts)
        checked += 1
    assert checked > 200


def test_greedy_take_is_the_best_legal_take():
    """greedy takes the pile whenever it legally can, with the take its scoring ranks first."""
    takes = 0
    for seed in range(600):
        pos, _, _ = random_position(seed, "greedy")
        hands = pos.S.hands
        melds = pos.S.melds
        pile = pos.S.pile
        st = pos.S.st
        seatv = pos.S.seatv
        sidev = pos.S.sidev
        ws = pos.S.ws
        options = pos.take_options(0)
        k, d, j = greedy.greedy_take_nb(pos.nb, st, seatv, sidev, hands[0], melds, pile, 0,
                                          pos.plan, ws)
        if not options:
            assert k == -1
            continue
        takes += 1
        assert (k, d, j) in options
        best = max(10 * a - 3 * (b + c) for a, b, c in options)
        assert 10 * k - 3 * (d + j) == best
    assert takes > 50


def greedy_discard(pos, seat=0):
    hands, melds = pos.S.hands, pos.S.melds
    n = options.discard_options_nb(hands[seat], pos.opts)
    i = greedy.greedy_nb(pos.nb, pos.params[seat], options.DEC_DISCARD, pos.opts, n,
                         hands[seat], melds, 0, pos.S.ws[10])
    return int(pos.opts[i, 1])


def test_greedy_discards_a_black_three_first():
    pos = Position().hand(0, "3s A K K 9 2")
    assert greedy_discard(pos) == TOKEN_TO_KIND["3b"]


def test_greedy_keeps_pairs_and_wild_cards():
    pos = Position().hand(0, "K K 9 9 JK 2 5")
    assert greedy_discard(pos) == TOKEN_TO_KIND["5"]
    pos = Position().hand(0, "K K 9 9 JK 2")
    assert greedy_discard(pos) in (TOKEN_TO_KIND["K"], TOKEN_TO_KIND["9"])


def test_greedy_discards_high_single_cards_before_low_ones():
    pos = Position().hand(0, "A 4 9 9")
    assert greedy_discard(pos) == TOKEN_TO_KIND["A"]


def test_greedy_keeps_cards_of_its_melded_ranks():
    pos = Position().meld(0, "7", "7 7 7").hand(0, "7 K 9 9")
    assert greedy_discard(pos) == TOKEN_TO_KIND["K"]


def test_greedy_goes_out_when_it_can():
    pos = Position().meld(0, "9", "9 9 9 9 9 9 9").hand(0, "K K K 5").begin(0)
    (kind, *_), _ = greedy_step_and_options(pos)
    assert kind == options.OPT_GO_OUT


def test_greedy_spends_a_wild_card_only_to_complete_a_canasta():
    pos = Position().meld(0, "9", "9 9 9 9 9").meld(0, "8", "8 8 8 8 8 8") \
        .hand(0, "2 K Q 5 4").begin(0)
    (kind, rank, nat, de, jo), _ = greedy_step_and_options(pos)
    assert (kind, rank, de) == (options.OPT_ADD, TOKEN_TO_KIND["8"], 1)
    pos = Position().meld(0, "9", "9 9 9 9 9").hand(0, "2 K Q 5 4").begin(0)
    (kind, *_), _ = greedy_step_and_options(pos)
    assert kind == options.OPT_STOP


def test_greedy_melds_the_initial_minimum_at_once():
    pos = Position().hand(0, "A A A K K K 5 6 7 3s").begin(0)
    (kind, rank, nat, de, jo), _ = greedy_step_and_options(pos)
    assert (kind, rank, nat) == (options.OPT_NEW, TOKEN_TO_KIND["A"], 3)


def test_random_is_uniform_over_the_options():
    """random's choices are uniform: chi-square over a 5-option decision."""
    pos = Position()
    n = 5
    counts = np.zeros(n, int)
    from canasta_sim.kernels.game.rng import seed_streams_nb
    seed_streams_nb(pos.S.rng, 3, 0)
    for _ in range(20000):
        counts[random.random_pick_nb(pos.S.rng, 2, n)] += 1
    expected = 20000 / n
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 18.5            # 4 degrees of freedom, p = 0.001
