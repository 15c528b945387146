"""Pictures for the tables, drawn in worker processes."""
