"""Live play: the loop that ties screen, vision, agent and keys together."""
