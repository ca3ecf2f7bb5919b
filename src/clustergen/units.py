"""Small unit helpers shared by every layer. Values carry units in their names; these convert."""

from __future__ import annotations

import functools

W_PER_KW = 1_000.0
W_PER_MW = 1_000_000.0


def watts(w: float | None) -> str:
    """Watts for people: W, kW or MW; None is 'unknown'."""
    if w is None:
        return "unknown"
    if abs(w) >= W_PER_MW:
        return f"{w / W_PER_MW:,.3f} MW"
    if abs(w) >= W_PER_KW:
        return f"{w / W_PER_KW:,.1f} kW"
    return f"{w:,.0f} W"


def power_words(w: float, digits: int = 2) -> str:
    """A cap or a draw as a customer writes it: kW under a megawatt ("600 kW"), MW beyond."""
    if abs(w) < W_PER_MW:
        return f"{w / W_PER_KW:,.0f} kW"
    return f"{w / W_PER_MW:,.{digits}f} MW"


def bandwidth(gb_per_s: float | None) -> str:
    """Bytes per second for people: GB/s below 1,000, TB/s above; three significant figures and
    thousands separators ('8 GB/s', '11.1 GB/s', '15.6 TB/s'); None is 'unknown'."""
    if gb_per_s is None:
        return "unknown"
    value, unit = (gb_per_s / 1e3, "TB/s") if abs(gb_per_s) >= 1e3 else (gb_per_s, "GB/s")
    digits = 0 if abs(value) >= 100 else 1 if abs(value) >= 10 else 2
    text = f"{value:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{value:,.0f}"
    return f"{text} {unit}"


def duration(days: float) -> str:
    """Wall-clock time in words: hours and minutes under two days, days beyond."""
    if days >= 2:
        return f"{days:,.1f} days"
    hours, minutes = divmod(round(days * 24 * 60), 60)
    if hours == 0:
        return f"{max(minutes, 1)} min"
    return f"{hours} h {minutes:02d} min"


def ceil_div(a: int, b: int) -> int:
    """Integer ceiling of a / b for non-negative a and positive b."""
    return -(-a // b)


def divisors(n: int) -> list[int]:
    """Positive divisors of n in ascending order."""
    return list(_divisors(n))


@functools.lru_cache(maxsize=4096)
def _divisors(n: int) -> tuple[int, ...]:
    """`divisors`, kept: a fabric sweep asks for the divisors of the same few uplink counts
    thousands of times (a pure function of n, so the memo changes no answer)."""
    small: list[int] = []
    large: list[int] = []
    i = 1
    while i * i <= n:
        if n % i == 0:
            small.append(i)
            if i != n // i:
                large.append(n // i)
        i += 1
    return (*small, *large[::-1])


def smallest_divisor_at_least(n: int, floor: int) -> int | None:
    """The smallest divisor of n that is >= floor, or None when floor > n."""
    for d in _divisors(n):
        if d >= floor:
            return d
    return None


def plural(n: int, noun: str) -> str:
    """A count and its noun in the right number, with thousands separators: "1 node",
    "1,024 switches"."""
    if n == 1:
        return f"1 {noun}"
    head, _, last = noun.rpartition(" ")
    many = last + ("es" if last.endswith(("s", "x", "ch", "sh")) else "s")
    return f"{n:,} {head + ' ' if head else ''}{many}"


def ratio(x: float) -> str:
    """A ratio as people write it: small integers where it is one within 1% (1.3333 -> "4:3",
    2.0 -> "2:1"), else two decimals to one."""
    from fractions import Fraction

    f = Fraction(x).limit_denominator(8)
    if abs(float(f) - x) <= 0.01 * x:
        return f"{f.numerator}:{f.denominator}"
    return f"{x:.2f}:1"


def per_kwh(usd: float) -> str:
    """An energy price as a bill writes it: $0.10/kWh, $0.085/kWh (never $0.1/kWh)."""
    text = f"{usd:.4f}".rstrip("0")
    if len(text.partition(".")[2]) < 2:
        text = f"{usd:.2f}"
    return f"${text}/kWh"


def dollars(value: float) -> str:
    """US dollars as a person writes them: $1.25B, $48.2M, $950K, $1,200."""
    if value >= 1e9:
        return f"${value / 1e9:,.2f}B"
    if value >= 1e6:
        return f"${value / 1e6:,.1f}M"
    if value >= 1e4:
        return f"${value / 1e3:,.0f}K"
    return f"${value:,.0f}"
