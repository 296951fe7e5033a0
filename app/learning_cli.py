"""``privref learn``: run the learning-curve experiment, write a JSON table and a PNG plot.

The plot (matplotlib, extra ``plots``) has two panels: the empirical labeled
sample complexity m*(d) and the empirical unlabeled sample complexity n*(d),
one line per (learner, family), against d (the domain is X_d = {0, …, 2^d −
1}); the legend gives each family's VC dimension.  Grid points where no size
reached the target are drawn as open markers at the top of the grid.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from privref.reference.errors import InvalidArgument, PrivrefError
from privref.reference.validate import to_fraction

from .learning import (
    FAMILIES,
    LEARNERS,
    Cell,
    ExperimentConfig,
    ExperimentResult,
    run_experiment,
    sample_complexity,
)

__all__ = ["configure_parser", "plot_png", "run"]

QUICK = {"dims": (2, 3), "labeled_sizes": (4, 16, 64), "unlabeled_sizes": (16,), "runs": 20}


def _ints(text: str, flag: str) -> tuple[int, ...]:
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise InvalidArgument(f"{flag} {text!r} must be a comma-separated list of ints") from None
    return values


def _exact(text: str, flag: str) -> Fraction:
    try:
        return to_fraction(text, flag.lstrip("-"))
    except PrivrefError as exc:
        raise InvalidArgument(f"{flag}: {exc}") from None


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the ``learn`` arguments to ``parser``."""
    parser.add_argument("--learners", default=",".join(LEARNERS),
                        help=f"comma-separated learner keys (default: all; known: {', '.join(LEARNERS)})")
    parser.add_argument("--families", default="thresholds,intervals",
                        help=f"comma-separated concept families ({', '.join(FAMILIES)})")
    parser.add_argument("--dims", default="2,3,4,5", help="values of d (domain size 2^d)")
    parser.add_argument("--labeled", default="2,4,8,16,32,64,128", help="labeled sizes m to try")
    parser.add_argument("--unlabeled", default="64", help="unlabeled sizes n to try")
    parser.add_argument("--alpha", default="1/4", help="accuracy α, exact (default 1/4)")
    parser.add_argument("--beta", default="1/4", help="failure probability β, exact (default 1/4)")
    parser.add_argument("--epsilon", default="1", help="privacy parameter ε, exact (default 1)")
    parser.add_argument("--runs", default="100", help="repetitions per grid cell (default 100)")
    parser.add_argument("--seed", default="0", help="master seed (default 0)")
    parser.add_argument("--quick", action="store_true",
                        help="a small grid (d in 2,3; m in 4,16,64; 20 runs) for smoke tests")
    parser.add_argument("--json", metavar="PATH", default="learning.json",
                        help="JSON table (default learning.json)")
    parser.add_argument("--png", metavar="PATH", default="learning.png",
                        help="PNG plot (default learning.png)")


def _config(args: argparse.Namespace) -> ExperimentConfig:
    kwargs: dict[str, Any] = {
        "learners": tuple(k for k in args.learners.split(",") if k),
        "families": tuple(f for f in args.families.split(",") if f),
        "dims": _ints(args.dims, "--dims"), "labeled_sizes": _ints(args.labeled, "--labeled"),
        "unlabeled_sizes": _ints(args.unlabeled, "--unlabeled"),
        "alpha": _exact(args.alpha, "--alpha"), "beta": _exact(args.beta, "--beta"),
        "epsilon": _exact(args.epsilon, "--epsilon"),
        "runs": _ints(args.runs, "--runs")[0], "seed": _ints(args.seed, "--seed")[0]}
    if args.quick:
        kwargs.update(QUICK)
    return ExperimentConfig(**kwargs)


def plot_png(result: ExperimentResult, path: str | Path) -> None:
    """Write the two-panel plot of m*(d) and n*(d) (see the module docstring) as a PNG."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PrivrefError("privref learn needs matplotlib for --png: pip install "
                           f"'privref[plots]' ({exc})") from None
    target = Path(path)
    if not target.parent.exists():
        raise InvalidArgument(f"--png {path}: directory {target.parent} does not exist")
    stars = sample_complexity(result)
    cfg = result.config
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    top_m, top_n = max(cfg.labeled_sizes), max(cfg.unlabeled_sizes)
    lines: dict[tuple[str, str], list[tuple[int, int, int | None, int | None]]] = {}
    for (learner, family, d, vc), (m_star, n_star) in stars.items():
        lines.setdefault((learner, family), []).append((d, vc, m_star, n_star))
    for (learner, family), pts in sorted(lines.items()):
        pts.sort()
        vcs = sorted({vc for _, vc, _, _ in pts})
        label = f"{learner} · {family} (VC {'/'.join(map(str, vcs))})"
        ds = [p[0] for p in pts]
        ms = [p[2] if p[2] is not None else top_m * 2 for p in pts]
        line, = left.plot(ds, ms, marker="o", label=label)
        for d, _, m_star, _ in pts:
            if m_star is None:
                left.plot([d], [top_m * 2], marker="o", mfc="white", color=line.get_color())
        if LEARNERS[learner].layout != "labeled":
            ns = [p[3] if p[3] is not None else top_n * 2 for p in pts]
            right.plot(ds, ns, marker="s", label=label, color=line.get_color())
    for ax, what in ((left, "labeled"), (right, "unlabeled")):
        ax.set_xlabel("d  (domain X_d = {0, …, 2^d − 1})")
        ax.set_ylabel(f"empirical {what} sample complexity")
        ax.set_yscale("log", base=2)
        ax.set_xticks(list(cfg.dims))
        ax.grid(True, alpha=0.3)
    left.set_title(f"labeled m*: failure ≤ β={cfg.beta} at α={cfg.alpha} (CP {1 - cfg.ci_alpha})")
    right.set_title("unlabeled n* (semi-supervised learners)")
    left.legend(fontsize=7)
    if right.lines:
        right.legend(fontsize=7)
    else:
        right.text(0.5, 0.5, "no semi-supervised learner in this run", ha="center",
                   transform=right.transAxes)
    fig.suptitle(f"privref {result.version}: ε = {cfg.epsilon}, {cfg.runs} runs per cell, "
                 f"seed {cfg.seed}", fontsize=9)
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    plt.close(fig)


def run(args: argparse.Namespace) -> int:
    """Run ``privref learn``; 0 on success."""
    config = _config(args)
    for flag, path in (("--json", args.json), ("--png", args.png)):
        if path and not Path(path).parent.exists():
            raise InvalidArgument(f"{flag} {path}: directory {Path(path).parent} does not exist")

    def show(c: Cell) -> None:
        print(f"{c.learner:10s} {c.family:11s} d={c.d} m={c.labeled:<5d} n={c.unlabeled:<6d} "
              f"failures {c.failures}/{c.runs}  CP [{float(c.failure_low):.3f}, "
              f"{float(c.failure_high):.3f}]  mean error {float(c.mean_error):.3f}  "
              f"{c.seconds:.1f}s", file=sys.stderr, flush=True)

    result = run_experiment(config, progress=show)
    for (learner, family, d, vc), (m_star, n_star) in sample_complexity(result).items():
        print(f"{learner:10s} {family:11s} d={d} VC={vc}: m* = {m_star}, n* = {n_star}")
    Path(args.json).write_text(json.dumps(result.to_json(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.json}")
    if args.png:
        plot_png(result, args.png)
        print(f"wrote {args.png}")
    return 0
