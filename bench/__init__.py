"""Benchmarks, not tests. Run from the repository root: `python -m bench.bench` (`make bench`),
`python -m bench.grade_class`."""
