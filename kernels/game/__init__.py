"""The rules of Canasta as kernels: what a deal is, what is legal, what a move does, what it
scores.  Nothing here decides or names a player; kernels/players/ and kernels/play/ build on
it, never the other way round."""
