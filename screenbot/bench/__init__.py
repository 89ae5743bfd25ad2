"""`screenbot bench`: seeded simulated games played by a player, and their summary."""
