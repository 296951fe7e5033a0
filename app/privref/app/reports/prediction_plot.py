"""The figure of a ``privref experiments`` payload (PNG, matplotlib: the ``plots`` extra)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from ..experiments.prediction import PREDICTOR_KEYS, RATE_EXPONENT, predictor_spec
from .output import write_with

__all__ = ["plot", "plot_sweep"]


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


def plot_sweep(payload: dict[str, Any], path: Path) -> None:
    """The agnostic sweep: n* of Algorithm 1 and B1 against 1/γ (left) and of Algorithm 2 and
    B3 against 1/ε (right) at the fixed α, log–log, with the fitted rates (dotted: n* =
    a·term₁ + b·term₂ for the paper's predictor, c·term for the baseline) and the
    extrapolated crossover level (vertical line); written through :func:`.output.write_with`."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    alpha = Fraction(payload["config"]["alpha"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), squeeze=False)
    panels = (("stable", "gammas", "γ", ("alg1", "b1")),
              ("private", "epsilons", "ε", ("alg2", "b3")))
    colors = {"alg1": "tab:blue", "b1": "tab:orange", "alg2": "tab:green", "b3": "tab:red"}
    for ax, (pair, levels_key, symbol, keys) in zip(axes[0], panels, strict=True):
        levels = [Fraction(v) for v in payload["config"][levels_key]]
        for key in keys:
            found = [(1 / float(Fraction(r["level"])), r["n_star"]) for r in payload["n_star"]
                     if r["predictor"] == key and r["n_star"] is not None]
            label = SWEEP_LABELS[key]
            if found:
                ax.plot([x for x, _ in found], [y for _, y in found], marker="o",
                        color=colors[key], label=f"{label} (measured n*)")
            fit = payload["fits"].get(key, {})
            if fit.get("constants"):
                xs = np.geomspace(1 / float(max(levels)), 1 / float(min(levels)) * 4, 50)
                ys = [_rate(key, fit["constants"], float(alpha), 1 / x) for x in xs]
                ax.plot(xs, ys, linestyle=":", color=colors[key], linewidth=1)
        ext = payload["crossovers"][pair].get("extrapolated")
        if ext and ext.get("level_star") and (pair == "private" or ext["level_star"] < 1):
            ax.axvline(1 / ext["level_star"], color="grey", linestyle="--", linewidth=1,
                       label=f"fitted crossover {symbol}* = {ext['level_star']:.3g}")
        ax.axhline(payload["config"]["max_n"], color="black", linewidth=0.5)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ticks = sorted(1 / float(v) for v in levels)
        ax.set_xticks(ticks, [str(Fraction(1) / v) for v in sorted(levels, reverse=True)])
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel(f"1/{symbol}")
        ax.set_ylabel(f"n* (mean excess <= α = {payload['config']['alpha']})")
        ax.set_title(f"{keys[0]} vs {keys[1]} at equal proved {symbol} (line: max n)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6)
    fig.suptitle(f"privref {payload['versions']['privref']} experiments, agnostic population "
                 f"P[y=1|x] = 1/2 ± 4α on {payload['config']['points']} points, α = "
                 f"{payload['config']['alpha']}, seed {payload['seed']}, "
                 f"{payload['config']['datasets']} datasets × {payload['config']['draws']} "
                 "draws", fontsize=8)
    fig.tight_layout()
    try:
        write_with(path, lambda fh: fig.savefig(fh, format="png", dpi=100), flag="--out")
    finally:
        plt.close(fig)


SWEEP_LABELS = {"alg1": "Alg 1 (Thm 1), proved γ-stable",
                "b1": "B1 subsample ERM, proved γ-stable",
                "alg2": "Alg 2 (Cor 1), proved ε-private",
                "b3": "B3 subsample-and-aggregate + flip, proved ε-private"}
"""The legend of each predictor of the agnostic sweep, with the claim it carries."""


def _rate(key: str, constants: list[float], alpha: float, level: float) -> float:
    """The fitted n* of ``key`` at (α, level): the terms of ``rate_terms`` times the constants."""
    terms = {"alg1": (1 / (alpha * level), 1 / alpha ** 2), "b1": (1 / (alpha ** 2 * level),),
             "alg2": (1 / (alpha ** 2 * level), 1 / alpha ** 2),
             "b3": (1 / (alpha ** 3 * level),)}[key]
    return sum(c * t for c, t in zip(constants, terms, strict=False))
