"""The figure of a ``privref table4`` payload (PNG, matplotlib: the ``plots`` extra)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from .output import write_with
from .pate_text import rule_of

__all__ = ["plot"]


def plot(payload: dict[str, Any], path: Path) -> None:
    """Top: accuracy vs ε per data set and method (PSQ, ASQ with the IWAL student, ASQ-MS with
    margin sampling; 95% CIs), NP, majority-class and non-private lines, and 001 Table 4's
    printed accuracies as markers.  Bottom: ASQ's labels used as a share of the budget (ours,
    both students, and the paper's), NP at the left."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sets = payload["datasets"]
    fig, axes = plt.subplots(2, len(sets), figsize=(6.2 * len(sets), 8.6), squeeze=False,
                             gridspec_kw={"height_ratios": (3, 2)})
    colors = {"PSQ": "tab:blue", "ASQ": "tab:orange", "ASQ-MS": "tab:green"}
    names = {"PSQ": "PSQ", "ASQ": "ASQ (IWAL)", "ASQ-MS": "ASQ-MS (margin, not the paper's)"}
    for ax, ds in zip(axes[0], sets, strict=True):
        by = {(a["method"], a["epsilon"]): a for a in ds["aggregates"]}
        eps = [e for e in payload["parameters"]["epsilons"]]
        xs = [float(Fraction(e)) for e in eps]
        for shift, method in ((0.96, "PSQ"), (1.0, "ASQ"), (1.04, "ASQ-MS")):
            if (method, eps[0]) not in by:
                continue
            rows = [by[(method, e)] for e in eps]
            ax.errorbar([x * shift for x in xs], [r["accuracy_mean"] for r in rows],
                        yerr=[r["accuracy_ci95"] or 0.0 for r in rows], marker="o", capsize=3,
                        color=colors[method], label=f"{names[method]} (ours, 95% CI)")
            papers = [(x, r["paper"]) for x, r in zip(xs, rows, strict=True) if r["paper"]]
            if papers:
                ax.scatter([x * shift for x, _ in papers], [p["accuracy"] for _, p in papers],
                           marker="x", s=60, color=colors[method], label=f"{method} (paper)")
            np_row = by[(method + "-NP", None)]
            ax.axhline(np_row["accuracy_mean"], color=colors[method], linestyle="--",
                       linewidth=1, label=f"{method}-NP (ours)")
            if np_row["paper"]:
                ax.axhline(np_row["paper"]["accuracy"], color=colors[method], linestyle=":",
                           linewidth=1, label=f"{method}-NP (paper)")
        ax.axhline(ds["majority_class_rate_mean"], color="grey", linestyle="-", linewidth=1,
                   label="majority-class rate (test)")
        ax.axhline(ds["nonprivate_accuracy_mean"], color="black", linestyle="-.", linewidth=1,
                   label="logistic regression on all private data")
        ax.set_xscale("log", base=2)
        ax.set_xticks(xs, [f"{x:g}" for x in xs])
        ax.set_xlabel("ε (δ = 1/#private)")
        ax.set_ylabel("test accuracy")
        sizes = ds["sizes"]
        ax.set_title(f"{ds['name']}: {ds['rows_used']} rows, K = {sizes['teachers']}, "
                     f"{sizes['public']} public, budget {sizes['budget']}", fontsize=9)
        ax.grid(True, alpha=0.3)
    for ax, ds in zip(axes[1], sets, strict=True):
        _queries_panel(ax, ds, payload)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(5, 3 * len(sets)), fontsize=7,
               frameon=False)
    fig.suptitle(f"privref {payload['versions']['privref']} table4 (001 Table 4), seed "
                 f"{payload['seed']}, {payload['parameters']['runs']} runs, "
                 f"{payload['parameters']['noise']} noise, {rule_of(payload)} active rule",
                 fontsize=9)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    try:
        write_with(path, lambda fh: fig.savefig(fh, format="png", dpi=100), flag="--png")
    finally:
        plt.close(fig)


def _queries_panel(ax: Any, ds: dict[str, Any], payload: dict[str, Any]) -> None:
    """ASQ's labels used / budget at NP and each ε: ours (IWAL, margin) and the paper's."""
    from ..experiments.paper_table4 import BUDGET
    by = {(a["method"], a["epsilon"]): a for a in ds["aggregates"]}
    eps: list[str | None] = [None, *payload["parameters"]["epsilons"]]
    labels = ["NP" if e is None else f"{float(Fraction(e)):g}" for e in eps]
    xs = list(range(len(eps)))
    ell = ds["sizes"]["budget"]
    paper_ell = BUDGET.get((ds["name"], "ASQ"))
    for method, np_name, color, offset in (("ASQ", "ASQ-NP", "tab:orange", -0.15),
                                           ("ASQ-MS", "ASQ-MS-NP", "tab:green", 0.15)):
        rows = [by.get((np_name, None) if e is None else (method, e)) for e in eps]
        ax.bar([x + offset for x in xs], [0 if r is None else r["queries_mean"] / ell for r in rows],
               width=0.28, color=color, label=f"{method} (ours)")
    if paper_ell:
        pts = [(x, by.get(("ASQ-NP", None) if e is None else ("ASQ", e)))
               for x, e in zip(xs, eps, strict=True)]
        ys = [(x, r["paper"]["queries"] / paper_ell) for x, r in pts if r and r.get("paper")]
        ax.scatter([x for x, _ in ys], [y for _, y in ys], marker="x", s=60, color="black",
                   zorder=3, label="ASQ (paper)")
    ax.set_xticks(xs, labels)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("ε")
    ax.set_ylabel("labels used / budget ℓ")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
