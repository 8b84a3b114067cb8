"""The shortcuts taken for speed give what the general code paths give.

``greedy`` discards, surveys the hand and takes the pile through shortcuts (greedy.py);
``random`` and the club players discard from the hand without the option list; each is
compared here with the general path it replaces, on random positions.  Whole deals
are compared bit for bit outside the test-suite (a reference file of the kernels' outputs).
"""
import numpy as np
from canasta_sim.kernels.game import options, plans, rng, slots, state
from canasta_sim.kernels.game.cards import DEUCE, FIRST_NATURAL, JOKER, NKINDS, RED3
from canasta_sim.kernels.players import club, greedy, random, switch
from canasta_sim.kernels.players.ids import POLICY_NAMES
from scenario import random_position


def test_greedy_discard_is_the_scored_option_list_pick():
    """greedy_discard_nb = the switch's pick (pick_option_nb, DEC_DISCARD) over
    discard_options_nb."""
    for seed in range(300):
        pos, _, _ = random_position(seed, "greedy")
        hands, melds = pos.S.hands, pos.S.melds
        for seat in range(2):
            n = options.discard_options_nb(hands[seat], pos.opts)
            if n == 0:
                continue
            i = switch.pick_option_nb(pos.nb, pos.S, pos.buf, seat, pos.table,
                                      options.DEC_DISCARD, n)
            assert greedy.greedy_discard_nb(pos.nb, hands[seat], melds, seat % 2) \
                == pos.opts[i, 1]


def test_random_and_club_discards_are_the_option_list_picks():
    """random_discard_nb = the switch's pick (pick_option_nb, DEC_DISCARD) over
    discard_options_nb, with the same
    draws from the seat's stream; club_discard_card_nb = club_discard_nb over that list."""
    for seed in range(200):
        policy = ("random", "careful", "rush", "builder", "expert")[seed % 5]
        pos, _, _ = random_position(seed, policy)
        hands = pos.S.hands
        melds = pos.S.melds
        pile = pos.S.pile
        st = pos.S.st
        seatv = pos.S.seatv
        sidev = pos.S.sidev
        streams = pos.S.rng
        ws = pos.S.ws
        pid = POLICY_NAMES.index(policy)
        for seat in range(4):
            n = options.discard_options_nb(hands[seat], pos.opts)
            if n == 0:
                continue
            stream = rng.STREAM_POLICY + seat
            if policy == "random":
                before = streams.copy()
                i = switch.pick_option_nb(pos.nb, pos.S, pos.buf, seat, pos.table,
                                          options.DEC_DISCARD, n)
                after = streams.copy()
                streams[:] = before
                assert random.random_discard_nb(hands[seat], streams, stream) \
                    == pos.opts[i, 1]
                assert (streams == after).all()
            else:
                i = club.club_discard_nb(pos.nb, hands, melds, pile, st, seatv, sidev,
                                         ws[slots.WS_UNSEEN], seat, pid, pos.params[seat],
                                         pos.opts, n)
                assert club.club_discard_card_nb(pos.nb, hands, melds, pile, st, seatv, sidev,
                                                 ws[slots.WS_UNSEEN], seat, pid,
                                                 pos.params[seat]) == pos.opts[i, 1]


def test_greedy_survey_matches_the_separate_scans():
    """greedy_ranks_nb's canastas, stray cards and canastas within reach equal canastas_nb,
    unmeldable_cards_nb and canastas_within_reach_nb."""
    rng = np.random.default_rng(5)
    for seed in range(300):
        pos, _, _ = random_position(seed, "greedy")
        hands, melds = pos.S.hands, pos.S.melds
        if seed % 2:
            hands[0, 4:] = rng.integers(0, 4, hands.shape[1] - 4)
        if seed % 3 == 0:                   # wild cards on some melds: sizes 6, 7 and more
            melds[:2, 1, :] += (melds[:2, 0, :] >= 4) * rng.integers(0, 3, melds.shape[2])
            state.set_meld_sizes(melds)
        for side in range(2):
            canastas, _, _, _, _, stray, kind, reach = greedy.greedy_ranks_nb(
                pos.nb, hands[0], melds, side)
            assert canastas == options.canastas_nb(melds, side)
            assert (stray, kind) == plans.unmeldable_cards_nb(pos.nb, hands[0], melds, side)
            assert reach == plans.canastas_within_reach_nb(hands[0], melds, side)


def test_meld_sizes_are_kept_with_the_cards():
    """The melds table's M_SIZE column is each meld's naturals + deuces + jokers after the
    engine's own moves (a played deal), and melds_consistent_nb finds a wrong one."""
    from canasta_sim.kernels.play import tasks

    from canasta_sim.runner import policy_table, prepare

    laid = 0
    for policy in ("random", "greedy", "expert"):
        plan = prepare(1, 7, "classic", policy)
        for deal in range(20):
            S = state.new_state()
            seat = tasks.run(tasks.TASK_UNTIL, plan.rules_nb, policy_table(plan), plan.params,
                             seed=7, first=deal, S=S, turns=12)[0]
            melds = S.melds
            sums = melds[:, slots.M_NAT] + melds[:, slots.M_DEUCE] + melds[:, slots.M_JOKER]
            assert (melds[:, slots.M_SIZE] == sums).all(), (policy, deal, seat)
            assert state.melds_consistent_nb(melds)
            laid += int(sums.sum())
    assert laid > 0
    melds[0, slots.M_SIZE, 5] += 1
    assert not state.melds_consistent_nb(melds)


def near_out_position(rules, rng):
    """A side-0 seat whose hand is close to meldable: melds of 3-7 cards (some mixed), a hand
    of pairs and triples of unmelded ranks, naturals of the melded ranks, 0-3 wild cards and
    at most one card that fits nowhere."""
    from scenario import Position

    pos = Position(rules)
    ranks = rng.permutation(np.arange(FIRST_NATURAL, NKINDS))
    melded = ranks[:int(rng.integers(1, 5))]
    for r in melded:
        nat = int(rng.integers(3, 8))
        wild = int(rng.integers(0, 3)) if nat < 7 else 0
        pos.S.melds[0, slots.M_NAT, r] = nat
        pos.S.melds[0, slots.M_DEUCE, r] = wild
    state.set_meld_sizes(pos.S.melds)
    pos.S.sidev[0, slots.SIDE_MELDED] = 1
    hand = pos.S.hands[0]
    for r in ranks[len(melded):len(melded) + int(rng.integers(0, 4))]:
        hand[r] = int(rng.integers(1, 5))
    for r in melded:
        hand[r] = int(rng.integers(0, 3))
    hand[DEUCE] = int(rng.integers(0, 3))
    hand[JOKER] = int(rng.integers(0, 2))
    if rng.random() < 0.3:
        hand[int(rng.integers(RED3, NKINDS))] += 1
    pos.begin(0)
    return pos


def plans_without_shortfall_check(pos):
    """The plans go_out_plans_nb lists, found by trying every discard candidate directly
    (plans_for_discard_nb), without its early wild-card shortfall check."""
    hands = pos.S.hands
    melds = pos.S.melds
    st = pos.S.st
    seatv = pos.S.seatv
    ws = pos.S.ws
    stray, stray_kind = plans.unmeldable_cards_nb(pos.nb, hands[0], melds, 0)
    ws[slots.WS_PLAN_DFS, plans.PD_JOINING] = 0
    ws[slots.WS_PLAN_DFS, plans.PD_NEED] = plans.canastas_needed_nb(pos.nb, st, 0)   # R40, C11
    n = 0
    for i in range(NKINDS):                     # as go_out_plans_nb tries them
        d = plans.discard_candidate_nb(i)
        hv = hands[0].copy()
        if (d >= 0 and (hv[d] == 0 or (stray == 1 and d != stray_kind))) or \
                (d < 0 and stray == 1):
            continue
        if d >= 0:
            hv[d] -= 1
        n = plans.plans_for_discard_nb(pos.nb, st, seatv, hv, melds, 0, 0, d, True, False,
                                       pos.plan, n, ws)
    return n


def test_wild_card_shortfall_hides_no_going_out_plan():
    """plans.wilds_fall_short_nb, which lets go_out_plans_nb stop early, says "short" only
    for hands where no discard leaves a plan, with one or two naturals opening a meld; and
    it does say it for many near-out hands, so the check is not idle."""
    rng = np.random.default_rng(14)
    for rules in ("classic", "classic(min_naturals_per_meld=1)"):
        short = with_plans = 0
        for _ in range(1500):
            pos = near_out_position(rules, rng)
            hand, melds = pos.S.hands[0], pos.S.melds
            stray, _ = plans.unmeldable_cards_nb(pos.nb, hand, melds, 0)
            if stray > 1:
                continue
            n = plans_without_shortfall_check(pos)
            with_plans += n > 0
            if plans.wilds_fall_short_nb(pos.nb, hand, melds, 0, stray == 0):
                short += 1
                assert n == 0, (rules, hand.tolist())
            else:
                st, seatv, ws = pos.S.st, pos.S.seatv, pos.S.ws
                assert plans.go_out_plans_nb(pos.nb, st, seatv, hand, melds, 0, True, True,
                                             False, pos.plan, ws) == n
        assert short >= 50 and with_plans >= 500, (rules, short, with_plans)


def meld_shapes_by_definition(mn, held, deuces, jokers):
    """Every make-up of a new meld of the smallest legal size, max(3, mn) cards with at least
    max(mn, 1) naturals (R18), that the hand holds: most naturals first, deuces before
    jokers."""
    size = max(3, mn)
    shapes = [(nat, de, size - nat - de)
              for nat in range(max(mn, 1), min(size, held) + 1)
              for de in range(0, min(size - nat, deuces) + 1)
              if size - nat - de <= jokers]
    return sorted(shapes, key=lambda s: (-s[0], -s[1]))


def test_new_meld_shapes_walk_every_make_up_in_order():
    """options.next_meld_shape_nb, stepped from (-1, 0), visits exactly the make-ups the
    definition lists, in its order, under every minimum of naturals and for every hand of
    up to eight naturals, four deuces and four jokers."""
    from scenario import Position

    rank = FIRST_NATURAL + 3
    walked = 0
    for mn in range(1, 8):
        rules = Position(f"classic(min_naturals_per_meld={mn})").nb
        for held in range(9):
            for deuces in range(5):
                for jokers in range(5):
                    hand = np.zeros(NKINDS, np.int64)
                    hand[rank], hand[DEUCE], hand[JOKER] = held, deuces, jokers
                    shapes = []
                    nat, de, jo = options.next_meld_shape_nb(rules, hand, rank, -1, 0)
                    while nat >= 0:
                        shapes.append((nat, de, jo))
                        nat, de, jo = options.next_meld_shape_nb(rules, hand, rank, nat, de)
                    assert shapes == meld_shapes_by_definition(mn, held, deuces, jokers), \
                        (mn, held, deuces, jokers)
                    walked += len(shapes)
    assert walked > 1000


def test_bit_walks_visit_the_set_bits_in_order():
    """kernels/game/bits.py: walking a rank bitmask by lowest_bit_nb visits its set bits lowest
    first, by highest_bit_nb highest first, and bit_count_nb counts them, for every mask of
    the sixteen meld kinds and for the top bit of an int64."""
    import numba
    from canasta_sim.kernels.game.bits import bit_count_nb, highest_bit_nb, lowest_bit_nb

    @numba.njit
    def count(mask):
        return bit_count_nb(mask)

    @numba.njit
    def walk(mask, up, out):
        n = 0
        while mask != 0:
            b = lowest_bit_nb(mask) if up else highest_bit_nb(mask)
            mask ^= np.int64(1) << b
            out[n] = b
            n += 1
        return n

    out = np.zeros(64, np.int64)
    for mask in list(range(1 << 16)) + [1 << 62, (1 << 62) | 5]:
        bits = [b for b in range(63) if (mask >> b) & 1]
        assert list(out[:walk(mask, True, out)]) == bits, mask
        assert list(out[:walk(mask, False, out)]) == bits[::-1], mask
        assert count(mask) == len(bits), mask


def test_no_plan_after_a_yes_means_no_plan_in_the_first_option_list():
    """turn.ask_phase_nb hands the first meld-option list of a draw turn ``no_plans`` when
    no going-out plan is open even after a "yes" (R42); the list it then builds without the
    plan search is the list the search would give, under optional and required asking, on
    random and near-out positions."""
    rng = np.random.default_rng(42)
    checked = with_plans = 0
    for i in range(600):
        rules = ("classic", "classic(ask_permission=required)")[i % 2]
        if i % 3:
            pos = near_out_position(rules, rng)
            seat = 0
        else:
            pos, _, _ = random_position(i, "random")
            seat = i % 4
            pos.begin(seat)
        hands = pos.S.hands
        melds = pos.S.melds
        pile = pos.S.pile
        st = pos.S.st
        seatv = pos.S.seatv
        ws = pos.S.ws
        n_full = options.meld_options_nb(pos.nb, st, seatv, hands[seat], melds, pile, seat,
                                         False, False, pos.opts, pos.plan, ws)
        full = pos.opts[:n_full].copy()
        with_plans += bool((full[:, 0] == options.OPT_GO_OUT).any())
        if options.can_go_out_if_yes_nb(pos.nb, st, seatv, hands[seat], melds, seat, pos.plan,
                                        ws):
            continue
        n = options.meld_options_nb(pos.nb, st, seatv, hands[seat], melds, pile, seat, False,
                                    True, pos.opts, pos.plan, ws)
        assert (pos.opts[:n] == full).all() and n == n_full, (rules, i)
        checked += 1
    assert checked >= 200 and with_plans >= 50, (checked, with_plans)


def _max_extra_count_by_rank(nb, hand, melds, side):
    """reach.max_extra_count_nb as written rank by rank (its definition, before the rank
    masks): every meldable natural goes down, then the best pairs and singles to complete
    for every split of the wild cards, jokers placed first."""
    def cap(naturals):
        return int(state.wild_capacity_nb(nb, naturals))

    def value(kind):
        return int(state.card_value_nb(nb, kind))

    total = cards = room = 0
    pairs, singles = [], []
    mn = nb.min_naturals_per_meld
    for r in range(FIRST_NATURAL, NKINDS):
        h, size, nat = int(hand[r]), int(melds[side, slots.M_SIZE, r]), \
            int(melds[side, slots.M_NAT, r])
        if h == 0 and size == 0:
            continue
        if size > 0:
            total, cards, room = total + h * value(r), cards + h, room + cap(nat + h) - (size - nat)
        elif h >= 3 and h >= mn:
            total, cards, room = total + h * value(r), cards + h, room + cap(h)
        elif h == 2 and mn <= 2 and cap(2) >= 1:
            pairs.append(2 * value(r))
        elif h == 1 and mn <= 1 and cap(1) >= 2:
            singles.append(value(r))
    pairs.sort(reverse=True)
    singles.sort(reverse=True)
    wilds = int(hand[JOKER] + hand[DEUCE])
    best, best_cards = -1, 0
    for t1 in range(len(singles) + 1):
        for t2 in range(len(pairs) + 1):
            used = 2 * t1 + t2
            if used > wilds:
                break
            placed = min(wilds, used + max(room + t1 * (cap(1) - 2) + t2 * (cap(2) - 1), 0))
            jokers = min(int(hand[JOKER]), placed)
            count = total + sum(singles[:t1]) + sum(pairs[:t2]) + jokers * value(JOKER) \
                + (placed - jokers) * value(DEUCE)
            placed_cards = cards + t1 + 2 * t2 + placed
            if count > best or (count == best and placed_cards < best_cards):
                best, best_cards = count, placed_cards
    return best, best_cards


def test_max_extra_count_walks_the_rank_masks_as_the_rank_loop():
    """reach.max_extra_count_nb (which walks a mask per case of rank) gives what the rank by
    rank definition gives, on random hands and melds, under the knobs it reads."""
    from canasta_sim.kernels.game import reach
    from scenario import Position

    variants = ("classic", "classic(min_naturals_per_meld=1)",
                "classic(min_naturals_per_meld=3)", "classic(wild_ratio_rule=half)",
                "classic(wild_ratio_rule=lt,max_wilds_per_meld=none)", "seed-b")
    gen = np.random.default_rng(11)
    for rules in variants:
        pos = Position(rules)
        ws = pos.S.ws
        for trial in range(150):
            hand = np.zeros(NKINDS, np.int64)
            hand[FIRST_NATURAL:] = gen.integers(0, 4, NKINDS - FIRST_NATURAL) * \
                (gen.random(NKINDS - FIRST_NATURAL) < 0.5)
            hand[DEUCE], hand[JOKER] = gen.integers(0, 4), gen.integers(0, 3)
            melds = np.zeros_like(pos.S.melds)
            for r in range(FIRST_NATURAL, NKINDS):
                if gen.random() < 0.3:
                    melds[0, slots.M_NAT, r] = gen.integers(3, 8)
                    melds[0, slots.M_DEUCE, r] = gen.integers(0, 2)
            state.set_meld_sizes(melds)
            got = reach.max_extra_count_nb(pos.nb, hand, melds, 0, ws)
            assert tuple(got) == _max_extra_count_by_rank(pos.nb, hand, melds, 0), \
                (rules, trial)


def test_shuffle_draws_one_rand_below_per_card_from_the_deck_stream():
    """deal.shuffle_nb (the stream's state stepped in a local) is the Fisher-Yates shuffle
    that draws rng.rand_below_nb(deck stream, i + 1) for i = n-1 .. 1, and leaves the stream
    where those draws leave it."""
    from canasta_sim.kernels.game import deal

    for index in range(40):
        streams = np.zeros(rng.NSTREAMS, np.uint64)
        rng.seed_streams_nb(streams, 20261129 + index % 3, index)
        n = 108 if index % 2 else 162
        deck = np.arange(n, dtype=np.int64)
        expected, reference = deck.copy(), streams.copy()
        for i in range(n - 1, 0, -1):
            j = rng.rand_below_nb(reference, rng.STREAM_DECK, i + 1)
            expected[i], expected[j] = expected[j], expected[i]
        deal.shuffle_nb(deck, n, streams)
        assert (deck == expected).all(), index
        assert (streams == reference).all(), index
