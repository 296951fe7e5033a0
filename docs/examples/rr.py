"""The README's black-box example: randomized response keeping its bit with probability 3/4.

Its exact privacy loss is ln 3 = 1.0986 under substitution; `privref audit blackbox
docs/examples/rr.py:rr --epsilon 1/2 ...` refutes a claim of 1/2 (README.md).
"""


def rr(data, rng):
    return data[0] if rng.random() < 0.75 else 1 - data[0]
