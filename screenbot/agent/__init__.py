"""Expectimax search that chooses the move, and the simulated-game bench."""
