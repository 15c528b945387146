"""Amounts of money as a person reads them."""

from __future__ import annotations


def money(amount: int, currency: str = "$") -> str:
    """`amount` with its currency's sign and thousands grouped: "$15,000", "-$500"."""
    # es-419 and en-US both group thousands with a comma and put the sign before the number.
    sign = "-" if amount < 0 else ""
    return f"{sign}{currency}{abs(amount):,}"
