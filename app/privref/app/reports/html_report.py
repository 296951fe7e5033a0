"""The HTML report of a black-box audit: one self-contained file with three inline-SVG plots.

``privref audit blackbox ... --html PATH`` writes it; from Python,
``write_html(path, report)`` for a report from
``run_audit(..., keep_witness_samples=True)``.

What is guaranteed:

* **Self-contained.** One HTML file: the style sheet is inline, the plots are
  SVG written here, and there are no scripts, images, fonts or links to other
  files or hosts.  It opens offline in any browser.
* **Escaped.** Every string that comes from the report (target, datasets,
  event, warnings, notes, errors, outcome labels) is HTML-escaped.
* **The same numbers as the JSON.** The header shows the report's fields
  (verdict, claim, bound, confidence, seed, samples, versions, witness pair,
  event, counts, warnings and notes).

The plots are built from the witness pair's confirmation samples (the arrays
the estimator saw; the runner keeps them when asked, so nothing is sampled
again):

1. the two output distributions, M(a) and M(b): bars of the outcomes (the
   most frequent ones for labels) or histograms on shared bins for numbers;
   tuple outputs are shown through one real number, the coordinate or learned
   score the witness event reads when it reads one (the caption says which);
2. the empirical privacy-loss distribution: ln(p̂/q̂) per outcome or bin,
   weighted by its frequency under P (the witness direction's numerator),
   with a separate "+∞" bar for outcomes or bins never seen under Q.  These
   are plug-in frequencies, not confidence statements;
3. the lower bound as N grows: :func:`privref.audits.blackbox.estimate.estimate_pair`
   re-run, with the run's epsilon, delta and the witness pair's alpha, on the
   first N/64, N/32, ..., N samples of each side (sizes below 2 are skipped).
   Each point is its own confidence statement; only the full-N point is the
   report's bound, and it equals the report's ``epsilon_lower_bound`` whenever
   the audit used the default estimator (the caption says so otherwise).

A partial report (an error or Ctrl-C) is rendered with what it has: plots
without samples say why they are empty.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import numpy as np
from numpy.typing import NDArray

from privref import reference
from privref.audits.blackbox.curves import CurveBounds
from privref.audits.blackbox.report import FLOAT_LEAK, BlackboxReport, PairResult, WitnessSamples
from privref.reference.reals import Real
from privref.reference.validate import ExactInput

from .output import check_output_path, write_text_atomic

if TYPE_CHECKING:
    from privref.audits.blackbox.estimate import PairFinding
    from privref.audits.blackbox.events import Event

__all__ = ["GrowthPoint", "bound_growth", "prefix_sizes", "render_html", "write_html"]

Samples = Sequence[Any] | NDArray[Any]
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]

MAX_DISCRETE: Final = 40
"""Numbers with at most this many distinct values are drawn as bars, beyond as a histogram."""
TOP_OUTCOMES: Final = 30
"""Labels (non-numeric outcomes): the most frequent this many get a bar each, the rest one bar."""
GROWTH_STEPS: Final = 7
"""Prefix sizes N, N/2, ..., N/64 for the bound-versus-N plot."""

_COLOR_A: Final = "#1f77b4"
_COLOR_B: Final = "#e8743b"
_COLOR_CLAIM: Final = "#c62828"
_COLOR_BOUND: Final = "#2e7d32"
_COLOR_EVENT: Final = "#424242"


# ----------------------------------------------------------------------------- bound vs N

@dataclass(frozen=True, slots=True)
class GrowthPoint:
    """The estimator's bound on the first ``samples_a``/``samples_b`` outcomes of each side.

    Each point is a separate confidence statement at the witness pair's
    alpha; only the full-sample point is the report's bound.
    """

    samples_a: int
    samples_b: int
    epsilon_lower_bound: float
    violation: bool


def prefix_sizes(n: int, steps: int = GROWTH_STEPS) -> tuple[int, ...]:
    """``n >> k`` for k = steps-1, ..., 0 (N/64, ..., N by default), increasing, sizes below 2 dropped."""
    return tuple(sorted({n >> k for k in range(steps) if n >> k >= 2}))


def _growth(samples: WitnessSamples, *, epsilon: Real | ExactInput, delta: ExactInput,
            alpha: int | Fraction | float,
            steps: int, float_events: bool = True,
            real_view: bool = False) -> tuple[tuple[GrowthPoint, ...], PairFinding]:
    from privref.audits.blackbox.estimate import estimate_pair_views

    def view(a: Samples, b: Samples) -> PairFinding:
        ieee, real = estimate_pair_views(a, b, epsilon=epsilon, delta=delta, alpha=alpha,
                                         float_events=float_events)
        return real if real_view and real is not None else ieee

    a, b = samples.a, samples.b
    full = view(a, b)
    points: list[GrowthPoint] = []
    for k in range(steps - 1, 0, -1):
        na, nb = len(a) >> k, len(b) >> k
        if na < 2 or nb < 2 or (na, nb) == (len(a), len(b)):
            continue
        if points and (points[-1].samples_a, points[-1].samples_b) == (na, nb):
            continue
        est = view(a[:na], b[:nb]).estimate
        points.append(GrowthPoint(na, nb, est.epsilon_lower_bound, est.violation))
    e = full.estimate
    points.append(GrowthPoint(len(a), len(b), e.epsilon_lower_bound, e.violation))
    return tuple(points), full


def bound_growth(samples: WitnessSamples, *, epsilon: Real | ExactInput, delta: ExactInput,
                 alpha: int | Fraction | float,
                 steps: int = GROWTH_STEPS, float_events: bool = True,
                 real_view: bool = False) -> tuple[GrowthPoint, ...]:
    """Re-run :func:`privref.audits.blackbox.estimate.estimate_pair_views` on prefixes of both sides.

    Prefixes hold ``len >> k`` samples for k = steps-1, ..., 0 (too small to
    split, i.e. fewer than 2, are skipped); the last point uses every sample,
    so with the audit's ``epsilon``, ``delta`` and the witness pair's
    ``alpha`` (``PairResult.alpha``) it reproduces the witness's bound in the
    chosen view exactly (``real_view``: the real-arithmetic view of a two-view
    run; else the IEEE-754 or only view).
    """
    return _growth(samples, epsilon=epsilon, delta=delta, alpha=alpha, steps=steps,
                   float_events=float_events, real_view=real_view)[0]


# ----------------------------------------------------------------------------- 1-D views

def _is_number(x: object) -> bool:
    return isinstance(x, int | float | np.integer | np.floating) and not isinstance(x, bool | np.bool_)


def _scalars(samples: Samples) -> FloatArray | None:
    """Every outcome as a float, or None when some outcome is not a number."""
    if isinstance(samples, np.ndarray):
        if samples.ndim == 1 and samples.dtype.kind in "iuf":
            return samples.astype(np.float64)
        return None
    if not all(_is_number(x) for x in samples):
        return None
    return np.array([float(x) for x in samples], dtype=np.float64)


def _tuple_length(samples: Samples) -> int | None:
    if isinstance(samples, np.ndarray):
        return int(samples.shape[1]) if samples.ndim == 2 else None
    lengths = {len(x) if isinstance(x, tuple) else -1 for x in samples}
    if len(lengths) != 1:
        return None
    (n,) = lengths
    return n if n > 0 else None


def _column(samples: Samples, j: int) -> FloatArray | None:
    """Coordinate ``j`` of every (tuple) outcome as floats; None if one is not a number."""
    if isinstance(samples, np.ndarray):
        return samples[:, j].astype(np.float64) if samples.dtype.kind in "iuf" else None
    out = np.empty(len(samples), dtype=np.float64)
    for i, x in enumerate(samples):
        v = x[j]
        if not _is_number(v):
            return None
        out[i] = float(v)
    return out


def _matrix(samples: Samples, dim: int) -> FloatArray:
    """Tuple outcomes as rows of floats; NaN where an entry is not a number."""
    if isinstance(samples, np.ndarray):
        return samples.astype(np.float64)
    out = np.full((len(samples), dim), math.nan)
    for i, x in enumerate(samples):
        out[i] = [float(v) if _is_number(v) else math.nan for v in x]
    return out


def _fmt(x: float) -> str:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "+∞" if x > 0 else "−∞"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.4g}"


def _label(outcome: object, limit: int = 16) -> str:
    text = repr(outcome)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class _View:
    """A partition of the outcomes into atoms, and how atoms are grouped into displayed slots.

    ``idx_a``/``idx_b`` give each sample's atom; ``slot_of`` each atom's slot.
    ``histogram`` marks equal-width bins in slots ``regular[0]:regular[1]``
    with edges ``edges``.  ``caption`` says which real number is shown;
    ``tips`` are the slots' full names for tooltips (default: the labels).
    """

    labels: tuple[str, ...]
    idx_a: IntArray
    idx_b: IntArray
    atoms: int
    slot_of: IntArray
    histogram: bool
    regular: tuple[int, int]
    edges: FloatArray
    caption: str
    tips: tuple[str, ...] = ()


def _discrete_keys(a: Samples, b: Samples, caption: str) -> _View:
    from privref.audits.blackbox.outcomes import canonical

    return _keyed([canonical(x) for x in a], [canonical(x) for x in b], caption, _label)


def _pattern_view(a: Samples, b: Samples, event: Event) -> _View | None:
    """The IEEE-754 pattern classes (sign, binade, trailing zero bits) of the numbers the
    pattern event reads: the view in which a floating-point leak lives."""
    from privref.audits.blackbox.features import describe_float_pattern, float_pattern

    coord = getattr(event, "coord", None)
    if isinstance(coord, int):
        xa, xb = _column(a, coord), _column(b, coord)
    else:
        xa, xb = _scalars(a), _scalars(b)
    if xa is None or xb is None:
        return None
    ka = [int(k) for k in float_pattern(xa)]
    kb = [int(k) for k in float_pattern(xb)]
    where = "the output" if not isinstance(coord, int) else f"output[{coord}]"

    def name(k: Hashable, limit: int = 16) -> str:
        text = describe_float_pattern(int(k)) if isinstance(k, int) else repr(k)
        return text if len(text) <= limit else text[: limit - 1] + "…"

    return _keyed(ka, kb, f"the IEEE-754 pattern class of {where} (sign, binade, trailing zero "
                          "bits), the view the witness event reads", name)


def _keyed(keys_a: Sequence[Hashable], keys_b: Sequence[Hashable], caption: str,
           name: Callable[..., str]) -> _View:
    pooled = Counter(keys_a)
    pooled.update(keys_b)
    order = sorted(pooled, key=lambda k: (-pooled[k], repr(k)))  # most frequent first
    index = {k: i for i, k in enumerate(order)}
    idx_a = np.fromiter((index[k] for k in keys_a), dtype=np.int64, count=len(keys_a))
    idx_b = np.fromiter((index[k] for k in keys_b), dtype=np.int64, count=len(keys_b))
    shown = min(len(order), TOP_OUTCOMES if len(order) > TOP_OUTCOMES + 1 else len(order))
    labels = [name(k) for k in order[:shown]]
    tips = [name(k, 200) for k in order[:shown]]
    slot_of = np.minimum(np.arange(len(order), dtype=np.int64), shown)
    if shown < len(order):
        labels.append(f"other ({len(order) - shown})")
        tips.append(f"the other {len(order) - shown} outcomes")
        caption += (f"; the {shown} most frequent of {len(order)} distinct outcomes, the rest "
                    "pooled in the last bar")
    return _View(tuple(labels), idx_a, idx_b, len(order), slot_of, False, (0, 0),
                 np.zeros(0), caption, tuple(tips))


def _numeric(xa: FloatArray, xb: FloatArray, caption: str) -> _View:
    pooled = np.concatenate([xa, xb])
    nan = np.isnan(pooled)
    distinct = np.unique(pooled[~nan])
    if len(distinct) + bool(nan.any()) <= MAX_DISCRETE:
        labels = [_fmt(float(v)) for v in distinct]

        def atom(x: FloatArray) -> IntArray:
            i = np.searchsorted(distinct, np.where(np.isnan(x), 0.0, x))
            return np.where(np.isnan(x), len(distinct), i).astype(np.int64)

        if nan.any():
            labels.append("NaN")
        n = len(labels)
        return _View(tuple(labels), atom(xa), atom(xb), n, np.arange(n, dtype=np.int64), False,
                     (0, 0), np.zeros(0), caption)
    finite = pooled[np.isfinite(pooled)]
    lo, hi = (float(v) for v in np.quantile(finite, [0.001, 0.999]))
    if not lo < hi:
        lo, hi = float(finite.min()), float(finite.max())
    bins = int(min(40, max(10, math.isqrt(len(pooled)))))
    if hi - lo < 2**50 and np.all(finite == np.round(finite)):  # integers: edges at halves
        width = math.ceil((hi - lo + 1) / bins)
        bins = math.ceil((hi - lo + 1) / width)
        edges = lo - 0.5 + width * np.arange(bins + 1, dtype=np.float64)
    elif math.isfinite(hi - lo):
        edges = np.linspace(lo, hi, bins + 1)
    else:  # a range beyond the largest double: interpolate without forming hi - lo
        t = np.linspace(0.0, 1.0, bins + 1)
        edges = lo * (1 - t) + hi * t
    lo, hi = float(edges[0]), float(edges[-1])

    def below(x: FloatArray) -> BoolArray:
        return np.asarray(np.isfinite(x) & (x < lo))

    def above(x: FloatArray) -> BoolArray:
        return np.asarray(np.isfinite(x) & (x > hi))

    def minus_inf(x: FloatArray) -> BoolArray:
        return np.asarray(x == -math.inf)

    def plus_inf(x: FloatArray) -> BoolArray:
        return np.asarray(x == math.inf)

    def is_nan(x: FloatArray) -> BoolArray:
        return np.asarray(np.isnan(x))

    left = [(name, test) for name, test in (("−∞", minus_inf), (f"< {_fmt(lo)}", below))
            if bool(np.any(test(pooled)))]
    right = [(name, test) for name, test in ((f"> {_fmt(hi)}", above), ("+∞", plus_inf),
                                             ("NaN", is_nan)) if bool(np.any(test(pooled)))]
    labels = [s[0] for s in left] + [""] * bins + [s[0] for s in right]

    def binned(x: FloatArray) -> IntArray:
        out = len(left) + np.clip(np.searchsorted(edges, x, side="right") - 1, 0, bins - 1)
        for j, (_, test) in enumerate(left):
            out = np.where(test(x), j, out)
        for j, (_, test) in enumerate(right):
            out = np.where(test(x), len(left) + bins + j, out)
        return np.asarray(out, dtype=np.int64)

    n = len(labels)
    return _View(tuple(labels), binned(xa), binned(xb), n, np.arange(n, dtype=np.int64), True,
                 (len(left), len(left) + bins), edges, caption)


def _view(a: Samples, b: Samples, event: Event | None) -> _View:
    """Choose the 1-D view of the outcomes (see the module docstring)."""
    from privref.audits.blackbox.events import ScoreThreshold

    xa, xb = _scalars(a), _scalars(b)
    if xa is not None and xb is not None:
        return _numeric(xa, xb, "the output")
    dim = _tuple_length(a)
    if dim is None or dim != _tuple_length(b):
        return _discrete_keys(a, b, "the output")
    if isinstance(event, ScoreThreshold):
        score = event.score
        sa, sb = score(_matrix(a, dim)), score(_matrix(b, dim))
        return _numeric(sa, sb, f"the learned score of the witness event: {score.describe()}")
    coord = getattr(event, "coord", None)
    if isinstance(coord, int) and 0 <= coord < dim:
        ca, cb = _column(a, coord), _column(b, coord)
        if ca is not None and cb is not None:
            return _numeric(ca, cb, f"output[{coord}], the coordinate the witness event reads")
    from privref.audits.blackbox.outcomes import canonical

    if len({canonical(x) for x in a} | {canonical(x) for x in b}) <= MAX_DISCRETE:
        return _discrete_keys(a, b, "the output (whole tuples)")
    for j in range(dim):
        ca, cb = _column(a, j), _column(b, j)
        if ca is not None and cb is not None:
            return _numeric(ca, cb, f"output[{j}], the first numeric coordinate (the witness "
                                    "event does not read a single coordinate)")
    return _discrete_keys(a, b, "the output")


# ----------------------------------------------------------------------------- SVG

def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    raw = hi / n - lo / n  # no overflow for any two doubles
    if not (raw > 0 and math.isfinite(raw)):
        return [lo] if math.isfinite(lo) else []
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9)
    return [k * step for k in range(first, math.floor(hi / step + 1e-9) + 1)]


def _tick_text(v: float) -> str:
    return f"{v:.4g}" if abs(v) >= 1e-12 else "0"


class _Plot:
    """An SVG canvas with a plot area and linear (or log-x) data coordinates."""

    W: Final = 720
    H: Final = 320
    L: Final = 64
    R: Final = 24
    T: Final = 48
    B: Final = 72

    def __init__(self, title: str) -> None:
        self.title = title
        self.parts: list[str] = []

    @property
    def width(self) -> float:
        """Width of the plot area in pixels."""
        return self.W - self.L - self.R

    @property
    def height(self) -> float:
        """Height of the plot area in pixels."""
        return self.H - self.T - self.B

    def add(self, element: str) -> None:
        """Append raw SVG markup (callers escape text)."""
        self.parts.append(element)

    def text(self, x: float, y: float, content: str, *, anchor: str = "middle", size: int = 11,
             color: str = "#222", rotate: float = 0, bold: bool = False) -> None:
        """A text label at (x, y), escaped."""
        transform = f' transform="rotate({rotate:g} {x:.1f} {y:.1f})"' if rotate else ""
        weight = ' font-weight="bold"' if bold else ""
        self.add(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
                 f'fill="{color}"{weight}{transform}>{escape(content)}</text>')

    def line(self, x1: float, y1: float, x2: float, y2: float, color: str, *, width: float = 1,
             dash: str = "") -> None:
        """A straight line."""
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                 f'stroke="{color}" stroke-width="{width:g}"{d}/>')

    def rect(self, x: float, y: float, w: float, h: float, color: str, *, opacity: float = 1.0,
             tip: str = "") -> None:
        """A filled rectangle, with an optional tooltip (escaped)."""
        title = f"<title>{escape(tip)}</title>" if tip else ""
        self.add(f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(w, 0):.1f}" height="{max(h, 0):.1f}" '
                 f'fill="{color}" fill-opacity="{opacity:g}">{title}</rect>')

    def y_axis(self, top: float, label: str) -> None:
        """Left axis from 0 to ``top`` with ticks and grid lines."""
        for v in _ticks(0.0, top):
            y = self.T + self.height * (1 - v / top)
            self.line(self.L, y, self.L + self.width, y, "#e6e6e6")
            self.text(self.L - 6, y + 4, _tick_text(v), anchor="end", size=10)
        self.line(self.L, self.T, self.L, self.T + self.height, "#444")
        self.line(self.L, self.T + self.height, self.L + self.width, self.T + self.height, "#444")
        self.text(14, self.T + self.height / 2, label, rotate=-90, size=11)

    def legend(self, items: Sequence[tuple[str, str]], *, dashed: Sequence[bool] = ()) -> None:
        """Colored keys along the top edge (two rows at most)."""
        x, y = float(self.L), 8.0
        for i, (color, name) in enumerate(items):
            room = 30 + 6.2 * len(name)
            if x > self.L and x + room > self.W - self.R:
                x, y = float(self.L), y + 16
            if i < len(dashed) and dashed[i]:
                self.line(x, y + 6, x + 16, y + 6, color, width=2, dash="5 3")
            else:
                self.rect(x, y + 1, 16, 10, color, opacity=0.8)
            self.text(x + 21, y + 10, name, anchor="start", size=11)
            x += room

    def svg(self) -> str:
        """The finished ``<svg>`` element."""
        head = (f'<svg viewBox="0 0 {self.W} {self.H}" '
                f'width="{self.W}" height="{self.H}" overflow="visible" role="img" '
                f'aria-label="{escape(self.title)}" '
                'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif">'
                f"<title>{escape(self.title)}</title>")
        return head + "".join(self.parts) + "</svg>"


def _empty_plot(title: str, why: str) -> str:
    plot = _Plot(title)
    plot.rect(plot.L, plot.T, plot.width, plot.height, "#f5f5f5")
    plot.text(plot.L + plot.width / 2, plot.T + plot.height / 2, why, size=13, color="#555")
    return plot.svg()


def _short(data: Sequence[Hashable], limit: int = 32) -> str:
    text = repr(list(data))
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ----------------------------------------------------------------------------- plot 1

def _distributions_plot(view: _View, a: Samples, b: Samples, pair: tuple[Sequence[Hashable], ...],
                        in_event: FloatArray | None) -> str:
    slots = int(view.slot_of.max()) + 1 if view.atoms else 0
    slot_a = view.slot_of[view.idx_a] if len(a) else np.zeros(0, dtype=np.int64)
    slot_b = view.slot_of[view.idx_b] if len(b) else np.zeros(0, dtype=np.int64)
    fa = np.bincount(slot_a, minlength=slots) / max(len(a), 1)
    fb = np.bincount(slot_b, minlength=slots) / max(len(b), 1)
    plot = _Plot("output distributions of the witness pair")
    top = max(float(fa.max(initial=0)), float(fb.max(initial=0)), 1e-9) * 1.1
    plot.y_axis(top, "fraction of samples")
    gap = 0.25 if slots <= 60 else 0.0
    slot_w = plot.width / max(slots, 1)
    base = plot.T + plot.height
    rotate = any(len(label) * 6.2 > slot_w * 0.9 for label in view.labels)
    for s in range(slots):
        x0 = plot.L + s * slot_w
        label = view.labels[s]
        if view.histogram and view.regular[0] <= s < view.regular[1]:
            tip_bin = (f"[{_fmt(float(view.edges[s - view.regular[0]]))}, "
                       f"{_fmt(float(view.edges[s - view.regular[0] + 1]))})")
            for frac, color, name in ((fa[s], _COLOR_A, "M(a)"), (fb[s], _COLOR_B, "M(b)")):
                h = plot.height * float(frac) / top
                plot.rect(x0, base - h, slot_w, h, color, opacity=0.5,
                          tip=f"{name}, bin {tip_bin}: {float(frac):.4g}")
        else:
            w = slot_w * (1 - gap) / 2
            for k, (frac, color, name) in enumerate(((fa[s], _COLOR_A, "M(a)"),
                                                     (fb[s], _COLOR_B, "M(b)"))):
                h = plot.height * float(frac) / top
                plot.rect(x0 + slot_w * gap / 2 + k * w, base - h, w, h, color, opacity=0.85,
                          tip=f"{name}, {view.tips[s] if view.tips else label}: {float(frac):.4g}")
        if in_event is not None and in_event[s] > 0:
            plot.rect(x0, base + 2, slot_w, 5, _COLOR_EVENT, opacity=1.0 if in_event[s] >= 1 else 0.35,
                      tip=f"{float(in_event[s]):.0%} of this bar's samples lie in the witness event")
        if not view.histogram or not view.regular[0] <= s < view.regular[1]:
            plot.text(x0 + slot_w / 2 + (3 if rotate else 0), base + 20, label,
                      anchor="end" if rotate else "middle", size=10, rotate=-35 if rotate else 0)
    if view.histogram:
        first, stop = view.regular
        lo, hi = float(view.edges[0]), float(view.edges[-1])
        for v in _ticks(lo, hi, 6):
            x = plot.L + (first + (v / 2 - lo / 2) / (hi / 2 - lo / 2) * (stop - first)) * slot_w
            plot.line(x, base, x, base + 4, "#444")
            plot.text(x, base + 20, _tick_text(v), size=10)
    keys = [(_COLOR_A, f"M(a), a = {_short(pair[0])}"), (_COLOR_B, f"M(b), b = {_short(pair[1])}")]
    if in_event is not None:
        keys.append((_COLOR_EVENT, "in the witness event (light: partly)"))
    plot.legend(keys)
    return plot.svg()


# ----------------------------------------------------------------------------- plot 2

@dataclass(frozen=True, slots=True)
class _Loss:
    finite: FloatArray      # ln(p̂/q̂) of atoms with p̂ > 0 and q̂ > 0
    weight: FloatArray      # their P-mass p̂
    infinite_mass: float    # P-mass of atoms never seen under Q
    atoms: int


def _loss(view: _View, a: Samples, b: Samples, direction: str) -> _Loss:
    ca = np.bincount(view.idx_a, minlength=view.atoms).astype(np.float64)
    cb = np.bincount(view.idx_b, minlength=view.atoms).astype(np.float64)
    (cp, n_p), (cq, n_q) = ((cb, len(b)), (ca, len(a))) if direction == "b→a" else ((ca, len(a)),
                                                                                    (cb, len(b)))
    seen = cp > 0
    both = seen & (cq > 0)
    p, q = cp / max(n_p, 1), cq / max(n_q, 1)
    return _Loss(np.log(p[both] / q[both]), p[both], float(p[seen & (cq == 0)].sum()),
                 int(seen.sum()))


def _loss_plot(loss: _Loss, claim: float, bound: float) -> str:
    plot = _Plot("empirical privacy-loss distribution under P")
    xs = [0.0, claim, bound, *(float(v) for v in loss.finite)]
    lo, hi = min(xs), max(xs)
    pad = 0.05 * (hi - lo) if hi > lo else 0.5
    lo, hi = lo - pad, hi + pad
    bins = 30
    edges = np.linspace(lo, hi, bins + 1)
    mass = np.histogram(loss.finite, bins=edges, weights=loss.weight)[0] if len(loss.finite) else \
        np.zeros(bins)
    has_inf = loss.infinite_mass > 0
    finite_w = plot.width * (0.86 if has_inf else 1.0)
    top = max(float(mass.max(initial=0)), loss.infinite_mass, 1e-9) * 1.1
    plot.y_axis(top, "mass under P")
    base = plot.T + plot.height

    def x_of(v: float) -> float:
        return plot.L + (v - lo) / (hi - lo) * finite_w

    bin_w = finite_w / bins
    for i in range(bins):
        h = plot.height * float(mass[i]) / top
        plot.rect(plot.L + i * bin_w + 0.5, base - h, bin_w - 1, h, _COLOR_A, opacity=0.75,
                  tip=f"loss in [{edges[i]:.4g}, {edges[i + 1]:.4g}): P-mass {float(mass[i]):.4g}")
    for v in _ticks(lo, hi, 6):
        if lo <= v <= hi:
            plot.line(x_of(v), base, x_of(v), base + 4, "#444")
            plot.text(x_of(v), base + 18, _tick_text(v), size=10)
    if has_inf:
        x0 = plot.L + finite_w + 0.04 * plot.width
        w = 0.07 * plot.width
        h = plot.height * loss.infinite_mass / top
        plot.rect(x0, base - h, w, h, _COLOR_B, opacity=0.85,
                  tip=f"+∞ (never seen under Q): P-mass {loss.infinite_mass:.4g}")
        plot.text(x0 + w / 2, base - h - 4, f"{loss.infinite_mass:.3g}", size=10)
        plot.text(x0 + w / 2, base + 18, "+∞", size=11, bold=True)
        plot.text(x0 + w / 2, base + 32, "(q̂ = 0)", size=10)
    plot.line(x_of(claim), plot.T, x_of(claim), base, _COLOR_CLAIM, width=2, dash="6 4")
    plot.line(x_of(bound), plot.T, x_of(bound), base, _COLOR_BOUND, width=2)
    plot.text(plot.L + finite_w / 2, base + 44, "ln(p̂/q̂) per outcome or bin", size=11)
    plot.legend([(_COLOR_A, "P-mass by loss"), (_COLOR_CLAIM, f"claimed ε = {claim:.4g}"),
                 (_COLOR_BOUND, f"lower bound = {bound:.4g}")], dashed=[False, True, False])
    return plot.svg()


# ----------------------------------------------------------------------------- plot 3

def _growth_plot(points: Sequence[GrowthPoint], claim: float) -> str:
    plot = _Plot("epsilon lower bound as N grows")
    ns = [p.samples_a for p in points]
    top = max([claim, *(p.epsilon_lower_bound for p in points), 0.05]) * 1.15
    plot.y_axis(top, "ε lower bound")
    base = plot.T + plot.height
    lo, hi = math.log(min(ns)), math.log(max(ns))
    if not hi > lo:
        lo, hi = lo - 1, hi + 1
    span = hi - lo

    def x_of(n: int) -> float:
        return plot.L + 20 + (math.log(n) - lo) / span * (plot.width - 40)

    def y_of(v: float) -> float:
        return base - plot.height * v / top

    plot.line(plot.L, y_of(claim), plot.L + plot.width, y_of(claim), _COLOR_CLAIM, width=2,
              dash="6 4")
    path = " ".join(f"{'M' if i == 0 else 'L'}{x_of(p.samples_a):.1f},{y_of(p.epsilon_lower_bound):.1f}"
                    for i, p in enumerate(points))
    plot.add(f'<path d="{path}" fill="none" stroke="{_COLOR_BOUND}" stroke-width="1.5"/>')
    for i, p in enumerate(points):
        x, y = x_of(p.samples_a), y_of(p.epsilon_lower_bound)
        last = i == len(points) - 1
        plot.add(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{6 if last else 4}" '
                 f'fill="{_COLOR_BOUND if last else "#fff"}" stroke="{_COLOR_BOUND}" stroke-width="2">'
                 f"<title>N = {p.samples_a} per side: ε ≥ {p.epsilon_lower_bound:.6g}"
                 f"{' (the report’s bound)' if last else ''}</title></circle>")
        plot.line(x, base, x, base + 4, "#444")
        plot.text(x, base + 18, str(p.samples_a), size=10)
    plot.text(plot.L + plot.width / 2, base + 40, "N, samples per side (log scale)", size=11)
    plot.legend([(_COLOR_BOUND, "bound on the first N samples (filled: all, the report’s bound)"),
                 (_COLOR_CLAIM, f"claimed ε = {claim:.4g}")], dashed=[False, True])
    return plot.svg()


# ----------------------------------------------------------------------------- curves

def _curve_plot(curves: CurveBounds) -> str:
    """The measured lower δ(ε) curve (solid) against the claimed δ(ε) (dashed), δ on a linear
    axis; the claimed curve is drawn only where the claim implies a δ < 1."""
    plot = _Plot("privacy profile: measured lower bound on δ(ε) vs the claim")
    eps = [float(e) for e in curves.epsilons]
    lower = [float(d) for d in curves.delta_lower]
    claimed = [None if c is None or c >= 1 else float(c)
               for c in (curves.claimed_delta or (None,) * len(eps))]
    top = max([*lower, *(c for c in claimed if c is not None), 0.01]) * 1.15
    top = min(top, 1.15)
    plot.y_axis(top, "δ(ε)")
    base = plot.T + plot.height
    lo, hi = eps[0], eps[-1]
    span = hi - lo if hi > lo else 1.0

    def x_of(v: float) -> float:
        return plot.L + 10 + (v - lo) / span * (plot.width - 20)

    def y_of(v: float) -> float:
        return base - plot.height * min(v, top) / top

    for v in _ticks(lo, hi if hi > lo else lo + 1):
        plot.line(x_of(v), base, x_of(v), base + 4, "#444")
        plot.text(x_of(v), base + 18, _tick_text(v), size=10)
    plot.text(plot.L + plot.width / 2, base + 40, "ε", size=11)
    runs: list[list[tuple[float, float]]] = [[]]
    for e, c in zip(eps, claimed, strict=True):
        if c is None:
            if runs[-1]:
                runs.append([])
            continue
        runs[-1].append((e, c))
    for run in runs:
        if run:
            path = " ".join(f"{'M' if i == 0 else 'L'}{x_of(e):.1f},{y_of(c):.1f}"
                            for i, (e, c) in enumerate(run))
            plot.add(f'<path d="{path}" fill="none" stroke="{_COLOR_CLAIM}" stroke-width="2" '
                     'stroke-dasharray="6 4"/>')
    path = " ".join(f"{'M' if i == 0 else 'L'}{x_of(e):.1f},{y_of(d):.1f}"
                    for i, (e, d) in enumerate(zip(eps, lower, strict=True)))
    plot.add(f'<path d="{path}" fill="none" stroke="{_COLOR_BOUND}" stroke-width="1.5"/>')
    for e, d in zip(eps, lower, strict=True):
        plot.add(f'<circle cx="{x_of(e):.1f}" cy="{y_of(d):.1f}" r="3" fill="{_COLOR_BOUND}">'
                 f"<title>ε = {e:g}: δ ≥ {d:.6g}</title></circle>")
    plot.legend([(_COLOR_BOUND, "measured lower bound on δ(ε)"),
                 (_COLOR_CLAIM, f"claimed δ(ε): {curves.claim_text or 'none'}")],
                dashed=[False, True])
    return plot.svg()


def _curves_section(report: BlackboxReport) -> str:
    curves = report.curves
    if curves is None:
        return ""
    joint = ("jointly with the verdict" if curves.joint_with_verdict else
             "on their own (the verdict used the pooled test: together with probability "
             "≥ 1 − 2(1 − confidence))")
    orders = "".join(f"<tr><td>{escape(str(a))}</td><td>{float(r):.6g}</td></tr>"
                     for a, r in zip(curves.orders, curves.renyi_lower, strict=True))
    refuted = "".join(f"<li>{escape(r)}</li>" for r in curves.refuted)
    return (
        "<h2>Curves</h2>\n"
        + _figure(_curve_plot(curves),
                  f"<b>Privacy profile.</b> Solid: the lower bound on δ(ε) at each ε of the grid, "
                  f"the best over the run's {curves.events} bounded events (both directions, every "
                  f"confirmed pair); dashed: the δ(ε) the claim implies "
                  f"({escape(curves.claim_text or 'none')}).  A solid point above the dashed "
                  f"curve refutes the claim.  All bounds hold at confidence "
                  f"{escape(str(curves.confidence))}, {escape(joint)}.")
        + '<table class="facts">'
        + _row("μ-GDP lower bound", f"{float(curves.mu_lower):.6g}"
               + ("" if curves.mu_event is None else f" (event {curves.mu_event})"))
        + _row("zCDP ρ lower bound", f"{float(curves.rho_lower):.6g}"
               + ("" if curves.rho_order is None else f" (order {curves.rho_order})"))
        + "</table>"
        + f'<table class="grid"><tr><th>Rényi order α</th><th>D_α lower bound</th></tr>{orders}'
        + "</table>"
        + (f"<p>The curves refute the claim:</p><ul>{refuted}</ul>" if refuted else ""))


# ----------------------------------------------------------------------------- the page

_CSS: Final = """
body { font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
       margin: 2em auto; max-width: 980px; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace;
              font-size: 0.92em; overflow-wrap: anywhere; }
.verdict { display: inline-block; padding: 0.2em 0.7em; border-radius: 4px; font-weight: bold;
           color: #fff; letter-spacing: 0.03em; }
.VIOLATION { background: #c62828; } .NO_VIOLATION_FOUND { background: #2e7d32; }
.PARTIAL { background: #6d6d6d; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { text-align: left; vertical-align: top; padding: 0.25em 0.8em 0.25em 0; }
table.facts th { font-weight: 600; white-space: nowrap; color: #444; }
table.grid th, table.grid td { border-bottom: 1px solid #eee; padding-right: 1.2em; }
.warn { color: #8a4b00; } .note { color: #444; }
figure { margin: 1.5em 0; } figcaption { max-width: 720px; font-size: 0.93em; color: #333; }
svg { max-width: 100%; height: auto; }
footer { margin-top: 3em; font-size: 0.85em; color: #666; }
"""


def _row(name: str, value: str, *, raw: bool = False, mono: bool = False) -> str:
    body = value if raw else escape(value)
    if mono:
        body = f'<span class="mono">{body}</span>'
    return f"<tr><th>{escape(name)}</th><td>{body}</td></tr>"


def _claim_text(eps: Real, delta: Fraction) -> str:
    text = f"{float(eps):.6g}"
    if str(eps) != text:
        text += f" = {eps}"
    return f"({text}, {delta})-DP"


def _float_leak(report: BlackboxReport) -> str:
    """The floating-point-leak box (only when the verdict comes from an IEEE-754 pattern event)."""
    if not report.float_leak or report.witness is None:
        return ""
    counts = ", ".join(f"{k} {v}" for k, v in report.witness.estimate.counts.items())
    return ('<p class="warn"><b>Floating-point leak (Mironov 2012).</b> '
            f"{escape(FLOAT_LEAK)}.  Event counts: {escape(counts)}.  Rerun with "
            "<code>--no-float-events</code> to audit the real-valued algorithm.</p>\n")


def _facts(report: BlackboxReport) -> str:
    w = report.witness
    rows = [_row("claim", _claim_text(report.claimed_epsilon, report.claimed_delta)
                 + ("" if report.relation is None else f" under {report.relation}"))]
    if report.group > 1 and report.tested_epsilon is not None and report.tested_delta is not None:
        rows.append(_row("group privacy", f"pairs within distance {report.group}: tested "
                                          + _claim_text(report.tested_epsilon, report.tested_delta)))
    if report.status != "complete":
        rows.append(_row("status", f"{report.status.upper()}: {report.error}"))
    rows.append(_row("ε lower bound", f"{report.epsilon_lower_bound:.6g} at confidence "
                                      f"{float(report.confidence):.6g} ({report.confidence})"))
    if w is not None:
        e = w.estimate
        rows.append(_row("witness pair", f"a = {list(w.pair[0])!r}   b = {list(w.pair[1])!r}   "
                                         f"({e.direction})", mono=True))
        rows.append(_row("event", e.event + ("  [floating-point leak (Mironov 2012)]"
                                             if report.float_leak else ""), mono=True))
        rows.append(_row("counts", ", ".join(f"{k} {v}" for k, v in e.counts.items())))
        if e.delta_at_claimed_epsilon is not None:
            lo, hi = e.delta_at_claimed_epsilon
            rows.append(_row("δ at the claimed ε", f"[{lo:.3g}, {hi:.3g}] (this event)"))
        rows.append(_row("alpha of the pair", f"{float(w.alpha):.4g} ({w.alpha})"))
    confirmed = sum(p.stage == "confirmation" for p in report.pairs)
    rows.append(_row("samples", f"{report.samples} per side on {confirmed} confirmed of "
                                f"{report.candidates} candidate pair(s)"
                                + ("" if report.screening_samples is None
                                   else f"; {report.screening_samples} per side when screening")))
    rows.append(_row("seed", str(report.seed)))
    rows.append(_row("target", report.target, mono=True))
    package = "—" if report.target_package is None else (
        f"{report.target_package} {report.target_package_version or '(version unknown)'}")
    rows.append(_row("target package", package))
    rows.append(_row("vectorized", "yes" if report.vectorized else "no"))
    rows.append(_row("privref version", reference.__version__))
    rows.append(_row("run", f"{report.elapsed_seconds:.1f} s on {report.workers} worker(s)"))
    return '<table class="facts">' + "".join(rows) + "</table>"


def _messages(report: BlackboxReport) -> str:
    out = []
    if report.warnings:
        out.append("<h2>Warnings</h2><ul>" + "".join(f'<li class="warn">{escape(m)}</li>'
                                                    for m in report.warnings) + "</ul>")
    if report.notes:
        out.append("<h2>Notes</h2><ul>" + "".join(f'<li class="note">{escape(m)}</li>'
                                                 for m in report.notes) + "</ul>")
    return "".join(out)


def _pairs_table(pairs: Sequence[PairResult], limit: int = 100) -> str:
    if not pairs:
        return ""
    ordered = sorted(pairs, key=lambda p: (p.stage != "confirmation", -p.estimate.epsilon_lower_bound,
                                           p.index))
    rows = ["<tr><th>stage</th><th>pair</th><th>samples</th><th>alpha</th><th>ε lower bound</th>"
            "<th>event</th></tr>"]
    for p in ordered[:limit]:
        mark = " (violation)" if p.estimate.violation else ""
        rows.append(f"<tr><td>{escape(p.stage)}</td><td class=\"mono\">{escape(repr(list(p.pair[0])))} "
                    f"vs {escape(repr(list(p.pair[1])))}</td><td>{p.samples}</td>"
                    f"<td>{float(p.alpha):.3g}</td><td>{p.estimate.epsilon_lower_bound:.6g}"
                    f"{mark}</td><td class=\"mono\">{escape(p.estimate.event)}</td></tr>")
    more = (f"<p>… {len(ordered) - limit} more pairs (see the JSON report).</p>"
            if len(ordered) > limit else "")
    return "<h2>Pairs</h2><table class=\"grid\">" + "".join(rows) + "</table>" + more


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{caption}</figcaption></figure>"


def _plots(report: BlackboxReport, samples: WitnessSamples | None) -> str:
    w = report.witness
    claim = float(report.claimed_epsilon if report.tested_epsilon is None
                  else report.tested_epsilon)
    bound = report.epsilon_lower_bound
    titles = ("output distributions of the witness pair",
              "empirical privacy-loss distribution under P", "epsilon lower bound as N grows")
    why = ("no witness pair: the run stopped before a pair was confirmed" if w is None else
           "no samples: this report carries none (run_audit(..., keep_witness_samples=True))"
           if samples is None else "")
    if w is None or samples is None or len(samples.a) < 2 or len(samples.b) < 2:
        why = why or "too few samples to plot"
        return "".join(_figure(_empty_plot(t, why), escape(why)) for t in titles)
    eps = report.claimed_epsilon if report.tested_epsilon is None else report.tested_epsilon
    delta = report.claimed_delta if report.tested_delta is None else report.tested_delta
    # the view in which the reported bound (and so any violation) lives
    real = (w.real_estimate is not None
            and w.real_estimate.epsilon_lower_bound > w.estimate.epsilon_lower_bound)
    points, finding = _growth(samples, epsilon=eps, delta=delta, alpha=w.alpha,
                              steps=GROWTH_STEPS, float_events=report.float_events,
                              real_view=real)
    event = None if finding.candidate is None else finding.candidate.event
    from privref.audits.blackbox.events import FloatPattern

    real_view = _view(samples.a, samples.b, event)
    pattern = _pattern_view(samples.a, samples.b, event) if isinstance(event, FloatPattern) else None
    view = real_view if pattern is None else pattern
    in_event = None
    if event is not None:
        slots = int(view.slot_of.max()) + 1
        sa, sb = view.slot_of[view.idx_a], view.slot_of[view.idx_b]
        total = np.bincount(np.concatenate([sa, sb]), minlength=slots).astype(np.float64)
        hit = (np.bincount(sa, weights=event.mask(samples.a).astype(np.float64), minlength=slots)
               + np.bincount(sb, weights=event.mask(samples.b).astype(np.float64), minlength=slots))
        in_event = np.divide(hit, total, out=np.zeros(slots), where=total > 0)
    direction = w.estimate.direction
    p_name, q_name = ("M(b)", "M(a)") if direction == "b→a" else ("M(a)", "M(b)")
    pair_text = escape(f"a = {list(w.pair[0])!r}, b = {list(w.pair[1])!r}")
    same = finding.estimate.event == w.estimate.event
    out = [_figure(
        _distributions_plot(view, samples.a, samples.b, w.pair, in_event),
        f"<b>Output distributions</b> of the witness pair ({pair_text}), {len(samples.a)} and "
        f"{len(samples.b)} confirmation samples.  Shown: {escape(view.caption)}.  "
        + ("Histograms on shared bins, overlaid; the outer bars, when present, hold values beyond "
           "the bins and infinities.  " if view.histogram else "Bars per outcome.  ")
        + "The dark strip marks outcomes in the witness event F"
        + ("" if same else " (as recomputed with the default estimator; the report's event differs)")
        + ".")]
    if pattern is not None:  # the leak lives in the pattern view; the real values look innocent
        out.append(_figure(
            _distributions_plot(real_view, samples.a, samples.b, w.pair, None),
            f"<b>Real-valued view</b> of the same samples ({escape(real_view.caption)}): the "
            "floating-point leak is invisible here; it lives in the IEEE-754 pattern classes "
            "above.  <code>--no-float-events</code> audits this view alone."))
    loss = _loss(view, samples.a, samples.b, direction)
    above = float(loss.weight[loss.finite > claim].sum()) + loss.infinite_mass
    out.append(_figure(
        _loss_plot(loss, claim, bound),
        f"<b>Empirical privacy loss</b> ln(p̂(o)/q̂(o)) with P = {p_name}, Q = {q_name} (the "
        f"witness direction), over {loss.atoms} outcomes or bins seen under P, weighted by their "
        "frequency under P, on the view above.  P-mass with loss above the claimed ε (+∞ "
        f"included): {above:.4g}; at +∞ (seen under P, never under Q): "
        f"{loss.infinite_mass:.4g}.  These are plug-in "
        "frequencies, not confidence statements: with few samples, rare outcomes or bins often "
        "land at +∞ by chance.  The lines mark the claimed ε and the report's lower bound."))
    rows = "".join(f"<tr><td>{p.samples_a}</td><td>{p.epsilon_lower_bound:.6g}</td>"
                   f"<td>{'yes' if p.violation else 'no'}</td></tr>" for p in points)
    full = points[-1].epsilon_lower_bound
    check = ("" if full == bound else
             f"  <b>Note:</b> the recomputed full-N bound {full:.6g} differs from the report's "
             f"{bound:.6g}: the audit used another estimator.")
    out.append(_figure(
        _growth_plot(points, claim),
        "<b>The ε lower bound as N grows</b>: audits.blackbox.estimate.estimate_pair re-run on the "
        f"first N samples of each side, with the tested ε, δ = {escape(str(delta))} "
        f"and the witness pair's alpha = {float(w.alpha):.4g}.  Each point is a separate confidence "
        f"statement at confidence 1 − alpha; only the full-N point (N = {len(samples.a)}, filled) "
        f"is the report's bound.{check}"
        '<table class="grid"><tr><th>N per side</th><th>ε lower bound</th><th>exceeds the claim'
        f"</th></tr>{rows}</table>"))
    return "".join(out)


def render_html(report: BlackboxReport, samples: WitnessSamples | None = None) -> str:
    """The HTML report of ``report`` as one self-contained string (see the module docstring).

    ``samples`` defaults to ``report.witness_samples``; they must be the
    witness pair's confirmation samples (``a`` for ``witness.pair[0]``).
    Without them (or for a report with no witness) the page still has its
    header and three plot panels, which say why they are empty.
    """
    samples = report.witness_samples if samples is None else samples
    if report.verdict is not None:
        verdict, css = report.verdict.value, report.verdict.value
    else:
        verdict, css = f"{report.status.upper()} (no verdict)", "PARTIAL"
    title = f"privref black-box audit: {report.target}"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        f"<h1>Black-box audit of <code>{escape(report.target)}</code></h1>\n"
        f'<p><span class="verdict {css}">{escape(verdict)}</span></p>\n'
        + _float_leak(report) + _facts(report) + "\n" + _messages(report)
        + "<h2>Plots</h2>\n" + _plots(report, samples) + "\n" + _curves_section(report)
        + _pairs_table(report.pairs)
        + "\n<footer>A black-box audit can only refute a claim: NO_VIOLATION_FOUND is no proof "
          "of privacy.  The bound holds with probability at least the stated confidence over the "
          f"sampling.  Written by privref {escape(reference.__version__)}.</footer>\n"
        "</body>\n</html>\n")


def write_html(path: str | Path, report: BlackboxReport, samples: WitnessSamples | None = None,
               *, flag: str = "--html") -> None:
    """Write :func:`render_html` to ``path`` (UTF-8), through :mod:`privref.app.reports.output`.

    Raises InvalidArgument (naming ``flag``) when ``path`` is unusable (a missing folder, a
    directory, no permission), OutputError when the write fails (a full disk).
    """
    target = check_output_path(flag, path)
    write_text_atomic(target, render_html(report, samples), flag=flag)
