"""Limits the command line checks arguments against; imports nothing heavy, so building the parser stays fast."""

MAX_FIXED_DEPTH = 40  # the deepest search the agent allows (screenbot.agent.search.MAX_FIXED_DEPTH)
