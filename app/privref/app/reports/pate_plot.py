"""The figure of a ``privref table4`` payload (PNG, matplotlib: the ``plots`` extra)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from .output import write_with
from .pate_text import rule_of

__all__ = ["plot"]


def plot(payload: dict[str, Any], path: Path) -> None:
    """Accuracy vs ε per data set and method (95% CIs), NP, majority-class and non-private lines,
    and 001 Table 4's printed accuracies as markers."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sets = payload["datasets"]
    fig, axes = plt.subplots(1, len(sets), figsize=(6.2 * len(sets), 5.2), squeeze=False)
    colors = {"PSQ": "tab:blue", "ASQ": "tab:orange"}
    for ax, ds in zip(axes[0], sets, strict=True):
        by = {(a["method"], a["epsilon"]): a for a in ds["aggregates"]}
        eps = [e for e in payload["parameters"]["epsilons"]]
        xs = [float(Fraction(e)) for e in eps]
        for shift, method in ((0.97, "PSQ"), (1.03, "ASQ")):
            rows = [by[(method, e)] for e in eps]
            ax.errorbar([x * shift for x in xs], [r["accuracy_mean"] for r in rows],
                        yerr=[r["accuracy_ci95"] or 0.0 for r in rows], marker="o", capsize=3,
                        color=colors[method], label=f"{method} (ours, 95% CI)")
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
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=5, fontsize=7, frameon=False)
    fig.suptitle(f"privref {payload['versions']['privref']} table4 (001 Table 4), seed "
                 f"{payload['seed']}, {payload['parameters']['runs']} runs, "
                 f"{payload['parameters']['noise']} noise, {rule_of(payload)} active rule",
                 fontsize=9)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    try:
        write_with(path, lambda fh: fig.savefig(fh, format="png", dpi=100), flag="--png")
    finally:
        plt.close(fig)
