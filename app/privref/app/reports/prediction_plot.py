"""The figure of a ``privref experiments`` payload (PNG, matplotlib: the ``plots`` extra)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..experiments.prediction import PREDICTOR_KEYS, RATE_EXPONENT, predictor_spec
from .output import write_with

__all__ = ["plot"]


def plot(payload: dict[str, Any], path: Path) -> None:
    """Per class: mean excess error against n at the smallest α (top) and the measured n*
    against 1/α with the predicted slope (bottom); written through :func:`.output.write_with`."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    classes = payload["config"]["classes"]
    fig, axes = plt.subplots(2, len(classes), figsize=(5.2 * len(classes), 8.4), squeeze=False)
    alphas = [Fraction(a) for a in payload["config"]["alphas"]]
    smallest = str(min(alphas))
    colors = dict(zip(PREDICTOR_KEYS, plt.rcParams["axes.prop_cycle"].by_key()["color"], strict=False))
    for j, cls in enumerate(classes):
        top, bottom = axes[0][j], axes[1][j]
        for key in payload["config"]["predictors"]:
            pts = sorted((r["n"], r["mean_excess"]) for r in payload["rows"]
                         if r["class"] == cls and r["predictor"] == key
                         and r["alpha"] == smallest)
            if pts:
                top.plot([p for p, _ in pts], [max(e, 1e-4) for _, e in pts], marker=".",
                         color=colors.get(key), label=predictor_spec(key).label)
            found = sorted((1 / float(Fraction(r["alpha"])), r["n_star"])
                           for r in payload["n_star"] if r["class"] == cls
                           and r["predictor"] == key and r["n_star"] is not None)
            if not found:
                continue
            xs = [x for x, _ in found]
            bottom.plot(xs, [y for _, y in found], marker="o", color=colors.get(key),
                        label=predictor_spec(key).label)
            a = RATE_EXPONENT[key]
            scale = math.exp(float(np.mean([math.log(y) - a * math.log(x) for x, y in found])))
            line = [min(xs), max(xs)]
            bottom.plot(line, [scale * x ** a for x in line], linestyle=":",
                        color=colors.get(key), linewidth=1)
        top.axhline(float(Fraction(smallest)), color="grey", linestyle="--", linewidth=1)
        top.set_xscale("log")
        top.set_yscale("log")
        top.set_xlabel("n")
        top.set_ylabel(f"mean excess error at α = {smallest}")
        top.set_title(f"{cls}: excess error vs n (dashed: α)")
        bottom.set_xscale("log")
        bottom.set_yscale("log")
        bottom.set_xlabel("1/α")
        bottom.set_ylabel("measured n* (dotted: predicted slope, fitted constant)")
        bottom.set_title(f"{cls}: n* vs 1/α at ε = {payload['config']['epsilon']}")
        for ax in (top, bottom):
            ax.grid(True, alpha=0.3)
        bottom.legend(fontsize=6)
    axes[0][0].legend(fontsize=6)
    fig.suptitle(f"privref {payload['versions']['privref']} experiments, seed "
                 f"{payload['seed']}, {payload['config']['datasets']} datasets × "
                 f"{payload['config']['draws']} draws, noise {payload['config']['noise']}",
                 fontsize=8)
    fig.tight_layout()
    try:
        write_with(path, lambda fh: fig.savefig(fh, format="png", dpi=100), flag="--out")
    finally:
        plt.close(fig)
