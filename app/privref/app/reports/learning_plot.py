"""The PNG plot of ``privref learn`` (matplotlib, extra ``plots``).

Two panels: the empirical labeled sample complexity m*(d) and the empirical unlabeled sample
complexity n*(d), one line per (learner, family), against d (the domain is X_d = {0, …, 2^d −
1}); the legend gives each family's VC dimension.  Grid points where no size reached the target
are drawn as open markers at the top of the grid.
"""

from __future__ import annotations

from pathlib import Path

from privref.reference.errors import PrivrefError

from ..experiments.learning import LEARNERS, ExperimentResult, TheoremResult, sample_complexity
from .output import check_output_path, write_with

__all__ = ["plot_png", "plot_theorems_png"]


def plot_png(result: ExperimentResult, path: str | Path) -> None:
    """Write the two-panel plot of m*(d) and n*(d) (see the module docstring) as a PNG."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PrivrefError("privref learn needs matplotlib for --png: pip install "
                           f"'privref[plots]' ({exc})") from None
    target = check_output_path("--png", path)
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
    try:
        write_with(target, lambda fh: fig.savefig(fh, format="png", dpi=110), flag="--png")
    finally:
        plt.close(fig)


def plot_theorems_png(result: TheoremResult, path: str | Path) -> None:
    """``privref learn --theorems``: labeled m*(d) (left) and the unlabeled count (right, log scale)
    of IterLabelBoost, the Theorem 5.7 PAL, and KLNRS at each one's proved ε; open markers at the
    top of the grid where no grid m reached the target."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PrivrefError("privref learn needs matplotlib for --png: pip install "
                           f"'privref[plots]' ({exc})") from None
    target = check_output_path("--png", path)
    cfg = result.config
    top = max(cfg.labeled_sizes) * 2
    rows: dict[str, list[dict[str, object]]] = {}
    for row in result.summary():
        rows.setdefault(str(row["learner"]), []).append(row)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for learner, pts in rows.items():
        pts.sort(key=lambda r: int(str(r["d"])))
        ds = [int(str(r["d"])) for r in pts]
        eps = float(str(pts[0]["claimed_epsilon_float"]))
        ms = [int(str(r["m_star"])) if r["m_star"] is not None else top for r in pts]
        line, = left.plot(ds, ms, marker="o", label=f"{learner} (proved ε ≈ {eps:.3f}, δ = 0)")
        for d, r in zip(ds, pts, strict=True):
            if r["m_star"] is None:
                left.plot([d], [top], marker="o", mfc="white", color=line.get_color())
        if not learner.startswith("klnrs"):
            unl = [max(c.unlabeled for c in result.cells if c.learner == learner and c.d == d)
                   for d in ds]
            right.plot(ds, unl, marker="s", color=line.get_color(), label=learner)
    left.set_ylabel("labeled m* (failure ≤ β)")
    left.set_yscale("log", base=2)
    right.set_ylabel("unlabeled examples used")
    right.set_yscale("log", base=10)
    for ax in (left, right):
        ax.set_xlabel("d  (THRESH_d over {0, …, 2^d − 1})")
        ax.set_xticks(list(cfg.dims))
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    left.set_title(f"labeled m* at α={cfg.alpha}, β={cfg.beta} (CP {1 - cfg.ci_alpha})",
                   fontsize=9)
    right.set_title("unlabeled: |D| (IterLabelBoost), pool t − m (PAL)", fontsize=9)
    fig.suptitle(f"privref {result.version}: 004 Theorems C.11 and 5.7 at scaled constants, PAL "
                 f"target ε = {cfg.epsilon}, {cfg.runs} runs per cell, seed {cfg.seed}", fontsize=9)
    fig.tight_layout()
    try:
        write_with(target, lambda fh: fig.savefig(fh, format="png", dpi=110), flag="--png")
    finally:
        plt.close(fig)
