"""benchmarks.perflines: the parsing that names a sample's source line (the profile itself
needs Linux ``perf`` and is never run in a test)."""
from canasta_sim.benchmarks.perflines import parse_addr2line, short_function, short_location, tally

SYMBOL = ("_ZN11canasta_sim7kernels7players13american_club14pair_chance_nbB4v163B36c8tJTIeFIjx"
          "E5ArrayIxLi1E1C7mutable7alignedE")


def test_addr2line_frames_are_read_innermost_first():
    out = ["0x10", SYMBOL, "/x/checkout/kernels/players/american_club.py:119",
           "_ZN4turn12play_turn_nbB4v1E", "/x/checkout/kernels/play/american/turn.py:601",
           "0x2a", "??", "??:0"]
    frames = parse_addr2line(out)
    assert sorted(frames) == [0x10, 0x2a]
    assert [short_location(loc) for _, loc in frames[0x10]] == [
        "kernels/players/american_club.py:119", "kernels/play/american/turn.py:601"]
    assert frames[0x2a] == [("??", "??:0")]


def test_names_and_locations_are_shortened():
    assert short_function(SYMBOL) == "pair_chance_nb"
    assert short_location("/a/b/kernels/game/melds.py:53 (discriminator 2)") == \
        "kernels/game/melds.py:53"
    assert short_location("/v/lib/python3.11/site-packages/numba/cpython/builtins.py:607") \
        == "numba/cpython/builtins.py:607"


def test_samples_are_counted_at_their_offset_in_the_object():
    index = {SYMBOL: (0, 0x100, 0x7f0000001000)}             # the symbol at 0x100 in 0.o
    frames = {(0, 0x110): [(SYMBOL, "/c/kernels/players/american_club.py:119")]}
    found = [(0x7f0000001010, SYMBOL), (0x7f0000001010, SYMBOL), (0x42, "clear_page_erms")]
    assert tally(found, index, frames, "line") == {
        "kernels/players/american_club.py:119": 2, "[other] clear_page_erms": 1}
    assert tally(found, index, frames, "function")["pair_chance_nb"] == 2
    assert tally([(0x7f0000001020, SYMBOL)], index, frames, "line") == {"?": 1}
