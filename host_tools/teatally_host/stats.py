"""Small statistics the bench's models share (a leaf: imports no model)."""

import statistics


def percentile(values, p):
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    v = sorted(values)
    k = max(1, -(-len(v) * p // 100))  # ceil(n * p / 100), at least 1
    return v[int(k) - 1]


def median(values):
    return statistics.median(values) if values else 0
