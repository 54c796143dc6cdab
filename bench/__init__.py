"""Benchmark tooling: `make bench` (bench/run.py), load generator, SQL statement counts."""
