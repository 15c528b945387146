"""What the tests and the benchmarks share, and the wheel leaves out: people playing at a table of the real bot
through the fake Discord (`world`), the kill loop (`kills`), plausible games without players (`synthetic`) and a
throwaway PostgreSQL server (`pgcluster`)."""
