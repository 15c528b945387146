"""Everything that shows a table in Discord."""
