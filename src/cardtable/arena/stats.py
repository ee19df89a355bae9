"""Means with 95% confidence intervals, computed the way the schedule allows.

With duplicate deals the games of one deal are not independent (they share the cards),
so each bot's metric is first averaged over the games of a deal, and the interval is
Student's t over those per-deal means: ``mean ± t(0.975, n-1) · s / √n`` with ``n`` deals
and ``s`` their sample standard deviation. Deal luck, shared by every bot in a deal,
then drops out of each bot's spread as far as the rotations cancel it.

When every deal is a single game and the metric is a proportion (wins, losses), the
games are independent Bernoulli trials and the interval is Wilson's score interval,
which stays inside [0, 1] and behaves with few games or a rate near 0 or 1.

A proportion's t interval is kept inside [0, 1]. When every deal gave a bot the same
rate (it lost no game in a few deals), the sample deviation is zero and t would claim a
width of zero; Wilson's interval over the bot's games is given instead.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "Interval",
    "estimate",
    "mean_interval",
    "paired_difference",
    "t_quantile",
    "wilson_interval",
]

CONFIDENCE = 0.95
Z_95 = 1.959963984540054  # the standard normal's 0.975 quantile


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean and its 95% interval over ``n`` independent values; ``low``/``high`` are None
    when one value cannot give an interval. ``method``: ``student-t`` or ``wilson``."""

    mean: float
    low: float | None
    high: float | None
    n: int
    method: str

    def __str__(self) -> str:
        if self.low is None or self.high is None:
            return f"{self.mean:.3f} (interval needs 2+ deals)"
        return f"{self.mean:.3f} [{self.low:.3f}, {self.high:.3f}]"


def wilson_interval(successes: float, n: int, z: float = Z_95) -> Interval:
    """Wilson's score interval for ``successes`` out of ``n`` trials."""
    if n < 1:
        raise ValueError("an interval needs at least one trial")
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # Rounding can put an end a hair past p = 0 or 1; the interval always holds p.
    low, high = min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))
    return Interval(p, low, high, n, "wilson")


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean of independent ``values`` with Student's t interval (n-1 degrees of freedom)."""
    n = len(values)
    if n < 1:
        raise ValueError("an interval needs at least one value")
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, None, None, 1, "student-t")
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + CONFIDENCE / 2, n - 1) * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half, n, "student-t")


def estimate(deals: Iterable[Sequence[float]], binary: bool) -> Interval:
    """A bot's metric from its values grouped by deal: Wilson when every deal is one game
    of a 0/1 metric, else Student's t over the per-deal means."""
    groups = [list(g) for g in deals if g]
    if not groups:
        raise ValueError("no games to estimate from")
    values = [v for g in groups for v in g]
    if binary and all(len(g) == 1 for g in groups) and all(v in (0.0, 1.0) for v in values):
        return wilson_interval(math.fsum(values), len(values))
    means = [math.fsum(g) / len(g) for g in groups]
    t = mean_interval(means)
    if not binary or t.low is None or t.high is None:
        return t
    if t.low == t.high and all(v in (0.0, 1.0) for v in values):
        return wilson_interval(math.fsum(values), len(values))
    return Interval(t.mean, max(0.0, t.low), min(1.0, t.high), t.n, t.method)


def paired_difference(
    first: Mapping[int, Sequence[float]], other: Mapping[int, Sequence[float]]
) -> Interval | None:
    """One bot's metric minus another's, deal by deal (each averaged over its games of the
    deal first), with Student's t interval over the deals both played; None if they shared
    none. Duplicate deals give both bots the same cards, so most of a deal's luck cancels
    in its difference: the interval is narrower than the two bots' own, and it is the one
    that says whether one is stronger than the other."""
    deals = [deal for deal in first if first[deal] and other.get(deal)]
    if not deals:
        return None
    return mean_interval(
        [math.fsum(first[d]) / len(first[d]) - math.fsum(other[d]) / len(other[d]) for d in deals]
    )


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (0.5 < p < 1),
    by bisection on its distribution function (remembered: a stopping rule asks for
    every ``df`` in turn, once per deal and bot)."""
    if not 0.5 < p < 1 or df < 1:
        raise ValueError("t_quantile needs 0.5 < p < 1 and df >= 1")
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        low, high = high, high * 2
    for _ in range(200):
        mid = (low + high) / 2
        if _t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12:
            break
    return (low + high) / 2


def _t_cdf(t: float, df: int) -> float:
    """P(T <= t) for t >= 0: 1 - I_x(df/2, 1/2) / 2 with x = df / (df + t²)."""
    x = df / (df + t * t)
    return 1 - 0.5 * _incomplete_beta(df / 2, 0.5, x)


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    front = math.exp(log_front)
    # The fraction converges fast only below this point; above it, use the symmetry.
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    """Lentz's method for the incomplete beta continued fraction."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return fraction
