"""A game at a table, without Discord."""
