"""DiPApprox's benchmark programs, decided by privref's exact auditor (a benchmark, not a test).

Usage (from the repository root)::

    python benchmarks/bench_dipapprox.py [--quick] [--cap-seconds 120] \
        [--out docs/generated/dipapprox.json] [--markdown docs/generated/dipapprox.md]

DiPApprox (Bhusal, Chadha, Sistla, Viswanathan, CCS 2025; programs in the public repository
bhusalb/approximate-dp, ``examples/``) decides (ε, δ)-DP of loop-free programs with Laplace and
Gaussian noise.  Each family below is written here as a privref program from the paper's and
the files' description, as privref's own textbook mechanisms: query answers q ∈ {0,1}ⁿ,
neighbours = every other vector (ℓ∞ distance <= 1, privref's ``LInf`` relation), ε = 1/2 in
the scales.

* ``svt-laplace`` (their SVT-Laplace, folder ``svt_laplace_max``): T ~ Lap(0, 2/ε), Q_i ~
  Lap(q_i, 4/ε); output the first i with Q_i > T (or none): ``sparse_vector.above_threshold``
  (one :class:`~privref.reference.continuous_noise.ThresholdRun` event);
* ``svt-laplace-ge`` (``svt_laplace``): the same, firing on Q_i < T;
* ``noisymax-laplace`` / ``noisymin-laplace``: Q_i ~ Lap(q_i, 2/ε), output argmax / argmin:
  ``noisy_max.report_noisy_max_laplace`` (one
  :class:`~privref.reference.continuous_noise.NoisyArgmax` event);
* ``svt-gauss`` (their SVT-Gauss, ``svt_max``): T ~ N(0, (2/ε)²), Q_i ~ N(q_i, (4/ε)²), the first
  Q_i > T; claim (1.24, 1/100) (their Theorem 1's bound);
* ``noisymax-gauss`` (their NoisyMax, ``noisy_max``): Q_i ~ N(q_i, (2/ε)²) as in their files
  (their paper's Algorithm 21 says 4/ε), the argmax; claim (1/2, 1/100).

Gaussian events are integrated by validated quadrature (``privref.reference._quadrature``).

Claims: their Table 1/7's, and (1/2, 0) (pure; their Table 3) for the Laplace families.  Two
workloads: ``single`` = their single pair (0ⁿ, 0ⁿ⁻¹1), decided here in both orders (they check
one); ``all`` = every ordered pair of distinct vectors in {0,1}ⁿ (``privref.audits.exact.audit``).
Each case is timed once (wall and CPU seconds; the decision includes computing every law).
A family stops growing n once a case took more than ``--cap-seconds``; cases not run are
recorded as such, never dropped.  Nothing here asserts on time.

Published DiPApprox seconds beside each row are the paper's Table 7 (single / all pairs, their
10-minute limit; T.O = timeout) for the HEAD programs, read from the repository's ``paper.pdf``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

from privref.audits.exact import audit, audit_pair  # noqa: E402
from privref.reference.citations import Uncited  # noqa: E402
from privref.reference.continuous_noise import (  # noqa: E402
    GaussianNoise,
    LaplaceNoise,
    NoNoise,
    argmax,
    clear_caches,
    exceeds,
    first_above,
)
from privref.reference.data import Dataset  # noqa: E402
from privref.reference.mechanism import Mechanism  # noqa: E402
from privref.reference.neighbors import LInf, Universe, answer, answer_query  # noqa: E402
from privref.reference.noisy_max import report_noisy_max_laplace  # noqa: E402
from privref.reference.privacy import PrivacyClaim  # noqa: E402
from privref.reference.program import Program  # noqa: E402
from privref.reference.reals import rational  # noqa: E402
from privref.reference.sparse_vector import above_threshold  # noqa: E402
from privref.reference.verdict import Verdict  # noqa: E402

EPS = Fraction(1, 2)
"""The ε in the programs' scales (their ``eps``)."""

CLAIMS = {"(1/2, 1/100)": PrivacyClaim(rational(EPS), Fraction(1, 100)),
          "(1/2, 0)": PrivacyClaim(rational(EPS)),
          "(1.24, 1/100)": PrivacyClaim(rational(Fraction(124, 100)), Fraction(1, 100)),
          "(4, 1/100)": PrivacyClaim(rational(4), Fraction(1, 100))}
"""Their Table 1/7 claims: (1/2, 1/100) for Laplace and NoisyMax programs, (1.24, 1/100) for the
Gaussian SVT (their Theorem 1's bound at ε = 1/2, δ = 1/100); (1/2, 0) is their Table 3's."""

FAMILY_CLAIMS = {"svt-laplace": ("(1/2, 1/100)", "(1/2, 0)"),
                 "svt-laplace-ge": ("(1/2, 1/100)", "(1/2, 0)"),
                 "noisymax-laplace": ("(1/2, 1/100)", "(1/2, 0)"),
                 "noisymin-laplace": ("(1/2, 1/100)", "(1/2, 0)"),
                 "svt-gauss": ("(1.24, 1/100)",),
                 "noisymax-gauss": ("(1/2, 1/100)",),
                 "svt-gauss-leaky-1": ("(4, 1/100)",),
                 "svt-gauss-leaky-2": ("(1/2, 1/100)",),
                 "svt-laplace-leaky-5": ("(1/2, 0)",)}

SINGLE_PAIR: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "svt-laplace-leaky-5": ((-1, 0), (-1, -1))}
"""Families whose single pair is not (0ⁿ, 0ⁿ⁻¹1): their file ``dipc_inputs/svt_5.json``."""

PUBLISHED: dict[str, dict[int, tuple[str, str]]] = {
    # their Table 7 (HEAD programs): n -> (single pair, all pairs) seconds or T.O / O.M
    "svt-laplace": {2: ("5.1", "8.8"), 5: ("47.6", "T.O"), 11: ("500.2", "T.O")},
    "svt-laplace-ge": {2: ("4.1", "8.8"), 5: ("46.0", "T.O"), 11: ("497.8", "T.O")},
    "noisymax-laplace": {3: ("13.1", "47.2"), 4: ("T.O", "T.O")},
    "noisymin-laplace": {3: ("9.8", "45.6"), 4: ("T.O", "T.O")},
    "svt-gauss": {2: ("1.6", "2.4"), 5: ("7.9", "76.7"), 25: ("441.3", "O.M")},
    "noisymax-gauss": {2: ("1.0", "1.3"), 3: ("1.6", "3.1"), 4: ("37.8", "303.0"),
                       5: ("T.O", "-")},
    "svt-gauss-leaky-1": {5: ("1.0", "1.4"), 6: ("1.0", "2.1")},
    "svt-gauss-leaky-2": {3: ("1.0", "1.0"), 6: ("1.0", "1.1")},
    "svt-laplace-leaky-5": {2: ("1 (their Table 3, one pair)", "-")},
}


def expected(family: str, workload: str, n: int) -> str:
    """The verdict each case must reach: HOLDS, except report noisy max with N(0, (2/ε)²)
    over all pairs from n = 5 (a float computation in a research note on DiPApprox's
    programs found δ = 0.0207 > 1/100 at (00001 -> 11110); DiPApprox never reached n = 5)."""
    if family == "noisymax-gauss" and workload == "all" and n >= 5:
        return "VIOLATED"
    if "leaky" in family:  # DiPApprox's non-private variants: "not DP" in every published row
        return "VIOLATED"
    return "HOLDS"


def svt(n: int, above: bool) -> Mechanism[int]:
    """Their SVT-Laplace (``above``) or SVT-Laplace-Ge: privref's AboveThreshold at ε = 1/2
    (T ~ Lap(2/ε), Q_i ~ Lap(q_i, 4/ε), threshold 0): the first query past T, or n if none."""
    return above_threshold(tuple(answer_query(i) for i in range(n)), 0, EPS,
                           below=not above, relation=LInf(),
                           name=f"SVT-Laplace{'' if above else '-Ge'}")


def noisy_extreme(n: int, maximum: bool) -> Mechanism[int]:
    """Their NoisyMax-Laplace (``maximum``) or NoisyMin-Laplace: privref's report noisy max with
    Lap(2/ε) per query (the minimum as the maximum of the negated answers)."""
    def score(data: Dataset, i: int) -> int:
        return answer(data, i) if maximum else -answer(data, i)

    return report_noisy_max_laplace(range(n), score, epsilon=EPS, relation=LInf(),
                                    name=f"Noisy{'Max' if maximum else 'Min'}-Laplace")


def svt_gauss(n: int) -> Mechanism[int]:
    """Their SVT-Gauss (``svt_max``): T ~ N(0, (2/ε)²), Q_i ~ N(q_i, (4/ε)²), the first Q_i > T."""
    threshold, query = GaussianNoise(2 / EPS), GaussianNoise(4 / EPS)

    def program(data: Dataset) -> Program[int]:
        return first_above(threshold, 0, query, tuple(Fraction(answer(data, i))
                                                      for i in range(n)))

    return Mechanism("SVT-Gauss", program, CLAIMS["(1.24, 1/100)"],
                     Uncited("DiPApprox benchmark program SVT-Gauss (their Theorem 1's claim)"),
                     relation=LInf())


def noisymax_gauss(n: int) -> Mechanism[int]:
    """Their NoisyMax (Gaussian, ``noisy_max``): Q_i ~ N(q_i, (2/ε)²), the argmax."""
    noise = GaussianNoise(2 / EPS)

    def program(data: Dataset) -> Program[int]:
        return argmax(noise, tuple(Fraction(answer(data, i)) for i in range(n)))

    return Mechanism("NoisyMax-Gauss", program, CLAIMS["(1/2, 1/100)"],
                     Uncited("DiPApprox benchmark program NoisyMax with Gaussian noise"),
                     relation=LInf())


def leaky_1(n: int) -> Mechanism[int]:
    """Their SVT-Gauss-Leaky-1 (``new_nonpriv_svt_max``), ε = 8: the threshold is the constant
    0 (no noise), Q_i ~ N(q_i, (2/ε)²), the first Q_i > 0: independent threshold tests."""
    noise = GaussianNoise(Fraction(2, 8))

    def program(data: Dataset) -> Program[int]:
        for i in range(n):
            if (yield from exceeds(noise, answer(data, i), 0)):
                return i
        return n

    return Mechanism("SVT-Gauss-Leaky-1", program, CLAIMS["(4, 1/100)"],
                     Uncited("DiPApprox benchmark program SVT-Gauss-Leaky-1 (not private)"),
                     relation=LInf())


def leaky_raw(n: int, threshold: GaussianNoise | LaplaceNoise, name: str, claim: str
              ) -> Mechanism[int]:
    """Their SVT-Gauss-Leaky-2 / SVT-Laplace-Leaky-5: a noisy threshold, the raw queries (no
    noise), the first q_i > T."""
    def program(data: Dataset) -> Program[int]:
        return first_above(threshold, 0, NoNoise(), tuple(Fraction(answer(data, i))
                                                         for i in range(n)))

    return Mechanism(name, program, CLAIMS[claim],
                     Uncited(f"DiPApprox benchmark program {name} (not private)"),
                     relation=LInf())


FAMILIES: dict[str, Callable[[int], Mechanism[int]]] = {
    "svt-laplace": partial(svt, above=True),
    "svt-laplace-ge": partial(svt, above=False),
    "noisymax-laplace": partial(noisy_extreme, maximum=True),
    "noisymin-laplace": partial(noisy_extreme, maximum=False),
    "svt-gauss": svt_gauss,
    "noisymax-gauss": noisymax_gauss,
    "svt-gauss-leaky-1": leaky_1,
    "svt-gauss-leaky-2": partial(leaky_raw, threshold=GaussianNoise(1 / EPS),
                                 name="SVT-Gauss-Leaky-2", claim="(1/2, 1/100)"),
    "svt-laplace-leaky-5": partial(leaky_raw, threshold=LaplaceNoise(2 / EPS),
                                   name="SVT-Laplace-Leaky-5", claim="(1/2, 0)"),
}

SIZES = {"single": {"svt-laplace": (2, 5, 11, 25, 30, 50, 100, 200),
                    "svt-laplace-ge": (2, 5, 11, 30, 100),
                    "noisymax-laplace": (3, 4, 6, 8, 16, 32, 64),
                    "noisymin-laplace": (3, 4, 6, 8, 32),
                    "svt-gauss": (2, 5, 10, 25, 30),
                    "noisymax-gauss": (2, 3, 4, 5, 6, 8),
                    "svt-gauss-leaky-1": (5, 6),
                    "svt-gauss-leaky-2": (3, 6),
                    "svt-laplace-leaky-5": (2,)},
         "all": {"svt-laplace": (2, 3, 4, 5, 6, 7, 8, 9),
                 "svt-laplace-ge": (2, 5, 6),
                 "noisymax-laplace": (3, 4, 5, 6, 7, 8, 9),
                 "noisymin-laplace": (3, 4, 6),
                 "svt-gauss": (2, 3, 4, 5, 6, 7),
                 "noisymax-gauss": (2, 3, 4, 5, 6, 7),
                 "svt-gauss-leaky-1": (5, 6),
                 "svt-gauss-leaky-2": (3, 6)}}
QUICK = {"single": {k: v[:3] for k, v in SIZES["single"].items()},
         "all": {k: v[:2] for k, v in SIZES["all"].items()}}


def _verdict_text(v: Verdict) -> str:
    return v.value


def run_case(family: str, workload: str, n: int, claim_name: str) -> dict[str, Any]:
    """Decide one family at n inputs under one claim; wall and CPU seconds, verdict, widths."""
    mech = FAMILIES[family](n)
    claim = CLAIMS[claim_name]
    clear_caches()  # every case computes its laws from scratch
    witness = ""
    directions: dict[str, Any] = {}
    wall, cpu = time.perf_counter(), time.process_time()
    if workload == "single":
        a, b = SINGLE_PAIR.get(family, ((0,) * n, (0,) * (n - 1) + (1,)))
        reps = [audit_pair(mech, a, b, claim=claim), audit_pair(mech, b, a, claim=claim)]
        verdicts = [r.verdict for r in reps]
        directions = {"a": list(a), "b": list(b), "a_to_b": verdicts[0].value,
                      "b_to_a": verdicts[1].value}
        verdict = (Verdict.VIOLATED if Verdict.VIOLATED in verdicts else
                   Verdict.UNDECIDED if Verdict.UNDECIDED in verdicts else Verdict.HOLDS)
        width = max(r.delta_at_claim.width for r in reps)
        ratio = max(r.epsilon.t_lo for r in reps)
        eps_lo = (math.inf if any(r.epsilon.infinite for r in reps)
                  else math.log(ratio.numerator) - math.log(ratio.denominator))
        pairs = 2
    else:
        report = audit(mech, Universe((0, 1), (n,)), claim=claim)
        verdict, pairs = report.verdict, report.pairs
        width = report.undecided_width or Fraction(0)
        eps_lo = math.inf if report.epsilon_infinite else float(report.epsilon_lower)
        if report.verdict_witness is not None and verdict is Verdict.VIOLATED:
            w = report.verdict_witness
            witness = (f"{w.a} -> {w.b}: δ(ε) >= {float(w.delta_at_claim.lo):.5f}")
    out: dict[str, Any] = {
        "family": family, "workload": workload, "n": n, "claim": claim_name,
        "verdict": _verdict_text(verdict), "pairs": pairs,
        "wall_seconds": round(time.perf_counter() - wall, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "delta_width": float(width),
    }
    # display only: the worst pair's ε, lower end ("inf" when proved infinite)
    out["epsilon_lower"] = "inf" if math.isinf(eps_lo) else round(eps_lo, 6)
    if witness:
        out["witness"] = witness
    if directions:  # the single pair's two orders (DiPApprox checks a -> b only)
        out["directions"] = directions
    return out


def _meta(started: float, load_start: tuple[float, ...]) -> dict[str, Any]:
    return {
        "command": " ".join(["python", *sys.argv]),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "platform": platform.platform(), "python": platform.python_version(),
        "cpus": os.cpu_count(), "seconds": round(time.perf_counter() - started, 1),
        "loadavg_start": [round(x, 2) for x in load_start],
        "loadavg_end": [round(x, 2) for x in os.getloadavg()],
    }


def render(result: dict[str, Any]) -> str:
    """The Markdown tables of one run (one per family and workload)."""
    m = result["meta"]
    lines = [f"Generated by `{m['command']}` on {m['date']} ({m['seconds']} s; {m['cpus']} CPUs, "
             f"load {m['loadavg_start'][0]} at the start, {m['loadavg_end'][0]} at the end; "
             f"{m['platform']}, Python {m['python']}). Do not edit by hand.", ""]
    for family in FAMILIES:
        for workload in ("single", "all"):
            rows = [r for r in result["cases"] if r["family"] == family
                    and r["workload"] == workload]
            if not rows:
                continue
            title = ("single pair (0ⁿ, 0ⁿ⁻¹1), both orders" if workload == "single"
                     else "all ordered pairs of {0,1}ⁿ")
            lines += [f"### {family}, {title}", "",
                      "| n | claim | verdict | pairs | worst ε (lower end) | δ enclosure width "
                      "| wall s | CPU s | DiPApprox s (Table 7) |",
                      "|---|---|---|---|---|---|---|---|---|"]
            for r in rows:
                pub = PUBLISHED[family].get(r["n"])
                published = "-" if pub is None else pub[0 if workload == "single" else 1]
                if r["verdict"] == "not run":
                    lines.append(f"| {r['n']} | {r['claim']} | not run ({r['reason']}) | - | - "
                                 f"| - | - | - | {published} |")
                    continue
                eps = r.get("epsilon_lower")
                verdict = r["verdict"] + (f" ({r['witness']})" if r.get("witness") else "")
                lines.append(f"| {r['n']} | {r['claim']} | {verdict} | {r['pairs']} | "
                             f"{'∞' if eps == 'inf' else f'{eps:.4f}'} | "
                             f"{r['delta_width']:.2g} | {r['wall_seconds']:.3g} | "
                             f"{r['cpu_seconds']:.3g} | {published} |")
            lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the sweep; write JSON and Markdown; exit 1 if any decided case misses its expected
    verdict (:func:`expected`)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="the three smallest sizes only")
    parser.add_argument("--cap-seconds", type=float, default=120.0,
                        help="stop growing n in a family once a case took longer (default 120)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs/generated/dipapprox.json")
    parser.add_argument("--markdown", type=Path, default=ROOT / "docs/generated/dipapprox.md")
    args = parser.parse_args(argv)
    if args.cap_seconds <= 0:
        parser.error(f"--cap-seconds={args.cap_seconds} must be > 0")
    started, load = time.perf_counter(), os.getloadavg()
    sizes = QUICK if args.quick else SIZES
    cases: list[dict[str, Any]] = []
    for workload in ("single", "all"):
        for family, ns in sizes[workload].items():
            stopped = False
            for n in ns:
                for claim in FAMILY_CLAIMS[family]:
                    if stopped:
                        cases.append({"family": family, "workload": workload, "n": n,
                                      "claim": claim, "verdict": "not run",
                                      "reason": f"a smaller n took > {args.cap_seconds:g} s"})
                        continue
                    rec = run_case(family, workload, n, claim)
                    print(json.dumps(rec), flush=True)
                    cases.append(rec)
                    stopped = rec["wall_seconds"] > args.cap_seconds
    result = {"meta": _meta(started, load), "cases": cases}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    args.markdown.write_text(render(result) + "\n", encoding="utf-8")
    wrong = [c for c in cases if c["verdict"] != "not run"
             and c["verdict"] != expected(c["family"], c["workload"], c["n"])]
    for c in wrong:
        print(f"unexpected verdict: {c}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
