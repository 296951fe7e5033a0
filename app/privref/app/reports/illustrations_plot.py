"""The PNG plot of ``privref illustrate WHICH`` (matplotlib, extra ``plots``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from privref.reference.errors import PrivrefError

from .output import write_with

__all__ = ["plot"]


def plot(which: str, rows: list[dict[str, Any]], path: Path, meta: str) -> None:
    """Draw the rows of illustration ``which`` (littlestone, semiprivate or public) with ``meta``
    as the title and write the PNG to ``path``."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise PrivrefError(f"privref illustrate needs matplotlib: pip install 'privref[plots]' ({exc})"
                           ) from None
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    if which == "littlestone":
        xs = [r["points"] for r in rows]
        ax.plot(xs, [r["littlestone"] for r in rows], marker=".", label="Littlestone dimension")
        ax.plot(xs, [r["vc"] for r in rows], marker=".", label="VC dimension")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("domain size (thresholds on {0, …, n − 1})")
        ax.set_ylabel("dimension")
        ax.set_title("thresholds: Ldim = ⌊log2(n+1)⌋ grows, VC = 1")
    elif which == "semiprivate":
        for learner in ("klnrs", "sspp"):
            pts = sorted((r["points"], r["private_m_star"], r.get("em_bound"))
                         for r in rows if r["learner"] == learner)
            ys = [m if m is not None else 512 for _, m, _ in pts]
            name = {"klnrs": "fully private (KLNRS)", "sspp": "semi-private (A_SSPP)"}[learner]
            line, = ax.plot([p for p, _, _ in pts], ys, marker="o", label=f"{name}: measured m*")
            if all(b is not None for _, _, b in pts):
                ax.plot([p for p, _, _ in pts], [int(b) for _, _, b in pts if b is not None],
                        linestyle="--",
                        color=line.get_color(), label=f"{name}: EM bound (2/(αε))ln(cands/β)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("domain size 2^d")
        ax.set_ylabel("private sample size")
        ax.set_title("private samples needed at equal ε (512 = not reached on the grid)")
    else:
        xs = [r["inverse_alpha"] for r in rows]
        ax.plot(xs, [r["public_n_star"] if r["public_n_star"] is not None else 512 for r in rows],
                marker="o", label="A_SSPP: empirical public n*")
        ax.plot(xs, [r["lower_bound_1_over_1600_alpha"] for r in rows], linestyle="--",
                label="003 Thm 4.1: n_pub > 1/(1600α)")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log", base=2)
        ax.set_xlabel("1/α")
        ax.set_ylabel("public sample size")
        ax.set_title("public samples needed as α shrinks (512 = not reached)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    import textwrap
    fig.suptitle("\n".join(textwrap.wrap(meta, 110)), fontsize=7)
    fig.tight_layout()
    try:
        write_with(path, lambda fh: fig.savefig(fh, format="png", dpi=110), flag="--png")
    finally:
        plt.close(fig)
