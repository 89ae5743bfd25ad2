"""Finds the 4x4 board on screen by its structure and saves a profile."""
