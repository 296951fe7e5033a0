"""Malformed inputs to the paper-002 Python API: predictors, their claims, and the exact auditor.

Covers privref.reference.prediction (claims, conversions, Predictor fields and queries),
privref.reference.learners.stable_prediction (002 Algorithms 1 and 2),
privref.reference.learners.prediction_baselines (baselines B1-B5), relabel_prediction.py (002
Algorithm 3), privref.audits.prediction (the per-query exact auditor) and the concept-class
constructors that feed them (an empty class, a class too large to enumerate).  Each case must
end in one typed privref error whose one-line message names the argument (see harness.py).

The shared fixture is tiny: thresholds on 2 points and a labeled dataset of n = 2 examples,
so every snippet that gets past validation would still finish in well under a second.
"""

from __future__ import annotations

from .harness import Case

_HEAD = """
import itertools
from fractions import Fraction
import numpy as np
from privref.reference.concepts import explicit, point_functions, thresholds, thresholds_on
from privref.reference.data import BOTTOM
from privref.reference.neighbors import Universe
from privref.reference.reals import log, rational
from privref.reference.prediction import (Predictor, PrivatePrediction, UniformStability,
    privacy_from_stability, stability_from_privacy)
from privref.reference.learners.stable_prediction import (flip_predictor, flip_privacy,
    private_predictor, stable_gamma, stable_predictor)
from privref.reference.learners.prediction_baselines import (block_average_predictor, erm,
    flipped_average_predictor, generic_predictor, private_majority_predictor,
    subsample_predictor)
from privref.reference.learners.relabel_prediction import (relabel_core_gamma,
    relabel_core_predictor, relabel_core_privacy, relabel_predictor)
from privref.audits.prediction import audit_prediction, audit_prediction_pair
from privref.reference.learners.relabel_analysis import refined_epsilon, stated_core_claim
C = thresholds_on(2)
S = ((0, 1), (1, 0))
rng = np.random.default_rng(0)
A1 = stable_predictor(C, 2, 1, 1)
U = Universe(((0, 0), (0, 1), (1, 0), (1, 1)), (2,))
"""


def _api(id: str, names: str, body: str, error: str = "PrivrefError") -> Case:
    return Case(id=f"prediction-{id}", names=names, api=_HEAD + body, error=error)


_BIG = "TooLargeToEnumerate"

CASES: list[Case] = [
    # ---- Predictor's per-query entry points (privref.reference.prediction) ---------------------------
    _api("law-data-not-iterable", r"data=5 must be an iterable", "A1.law(5, 0)"),
    _api("law-data-unhashable", r"data=.* must be an iterable of hashable",
         "A1.law([[{}], (1, 0)], 0)"),
    _api("law-precision-str", r"precision='x' must be an int", "A1.law(S, 0, precision='x')"),
    _api("law-precision-small", r"precision=4 must be >= 16", "A1.law(S, 0, precision=4)"),
    _api("law-max-paths-zero", r"max_paths=0 must be >= 1", "A1.law(S, 0, max_paths=0)"),
    _api("predict-many-queries-int", r"queries=5 must be an iterable",
         "A1.predict_many(S, 5, rng)"),
    _api("predict-batch-queries-int", r"queries=5 must be an iterable",
         "A1.predict_batch(S, 5, rng)"),
    _api("predict-batch-precision-str", r"precision='x' must be an int",
         "A1.predict_batch(S, [0], rng, precision='x')"),
    _api("predict-data-not-iterable", r"data=None must be an iterable",
         "A1.predict(None, 0, rng)"),
    # ---- claims and conversions (privref.reference.prediction) ---------------------------------------
    _api("claim-epsilon-negative", r"epsilon=-1 must be >= 0", "PrivatePrediction.of(-1)"),
    _api("claim-epsilon-nan", r"epsilon=nan", "PrivatePrediction.of(float('nan'))"),
    _api("claim-delta-one", r"delta=1 must be < 1", "PrivatePrediction.of(1, 1)"),
    _api("claim-gamma-negative", r"gamma=-1 must be >= 0", "UniformStability.of(-1)"),
    _api("stability-from-privacy-wrong-claim", r"claim=.*PrivatePrediction",
         "stability_from_privacy(UniformStability.of(0))"),
    _api("privacy-from-stability-vacuous", r"gamma=1 must be < 1",
         "privacy_from_stability(UniformStability.of(1))"),
    _api("privacy-from-stability-irrational", r"gamma=.*must be rational",
         "privacy_from_stability(UniformStability(log(rational(2)) * Fraction(1, 2)))"),
    # ---- Predictor fields -----------------------------------------------------------------------
    _api("predictor-empty-name", r"name='' must",
         "Predictor('', A1.program, A1.claim, A1.source)"),
    _api("predictor-claim-float", r"claim=0\.5 ", "Predictor('p', A1.program, 0.5, A1.source)"),
    _api("predictor-domain-empty", r"domain=\(\)",
         "Predictor('p', A1.program, A1.claim, A1.source, domain=())"),
    # ---- queries, randomness and datasets at run time -------------------------------------------
    _api("predict-rng-int", r"rng=5 must be a numpy", "A1.predict(S, 0, 5)"),
    _api("predict-batch-rng-string", r"rng='seed' must be", "A1.predict_batch(S, [0], 'seed')"),
    _api("predict-query-outside-domain", r"x=7 must be a point of the domain",
         "A1.predict(S, 7, rng)"),
    _api("predict-query-unhashable", r"x=\[0\] must be hashable", "A1.predict(S, [0], rng)"),
    _api("predict-batch-query-unhashable", r"x=\{0\} must be hashable",
         "A1.predict_batch(S, [0, {0}], rng)"),
    _api("predict-batch-dataset-too-large", r"data has 4 examples.*n=2",
         "A1.predict_batch(S + S, [0], rng)"),
    _api("law-unlabeled-example", r"data\[0\]=.*not ⊥", "A1.law(((0, BOTTOM), (1, 0)), 0)"),
    _api("law-point-outside-domain", r"data\[1\]=5 must be a point", "A1.law(((0, 1), (5, 0)), 0)"),
    _api("law-label-two", r"data\[0\]=\(0, 2\)", "A1.law(((0, 2), (1, 0)), 0)"),
    # ---- 002 Algorithms 1 and 2 (stable_prediction.py) ------------------------------------------
    _api("stable-m-above-n", r"m=3 must be <= 2", "stable_predictor(C, 2, 3, 1)"),
    _api("stable-m-zero", r"m=0 must be >= 1", "stable_predictor(C, 2, 0, 1)"),
    _api("stable-m-bool", r"m=True must be an int", "stable_predictor(C, 2, True, 1)"),
    _api("stable-n-zero", r"n=0 must be >= 1", "stable_predictor(C, 0, 1, 1)"),
    _api("stable-epsilon-negative", r"epsilon=-1 must be >= 0", "stable_predictor(C, 2, 1, -1)"),
    _api("stable-epsilon-nan", r"epsilon=nan", "stable_predictor(C, 2, 1, float('nan'))"),
    _api("stable-epsilon-inf", r"epsilon=inf", "stable_predictor(C, 2, 1, float('inf'))"),
    _api("stable-epsilon-garbage", r"epsilon='lots'", "stable_predictor(C, 2, 1, 'lots')"),
    _api("stable-class-list", r"C=\[0, 1\] must be a ConceptClass",
         "stable_predictor([0, 1], 2, 1, 1)"),
    _api("stable-gamma-m-above-n", r"m=3 must be <= 2", "stable_gamma(3, 2, 1)"),
    _api("private-flip-zero", r"flip=0 must lie in \(0, 1\]", "private_predictor(C, 2, 1, 1, 0)"),
    _api("private-flip-above-half", r"flip=3/4 must be <= 1/2",
         "private_predictor(C, 2, 1, 1, '3/4')"),
    _api("flip-inner-private-claim", r"inner\.claim=.*UniformStability",
         "flip_predictor(generic_predictor(C, 2, 1), '1/4')"),
    _api("flip-inner-not-predictor", r"inner='A1' must be a Predictor",
         "flip_predictor('A1', '1/4')"),
    _api("flip-privacy-stability-float", r"stability=0\.1 must be",
         "flip_privacy(0.1, '1/4')"),
    _api("flip-privacy-flip-one", r"flip=1 must be <= 1/2",
         "flip_privacy(UniformStability.of('1/2'), 1)"),
    # ---- baselines B1-B5 (prediction_baselines.py) ----------------------------------------------
    _api("subsample-m-above-n", r"m=3 must be <= 2", "subsample_predictor(C, 2, 3)"),
    _api("subsample-class-string", r"C='thresholds' must be a ConceptClass",
         "subsample_predictor('thresholds', 2, 1)"),
    _api("blocks-k-above-n", r"k=3 must be <= 2", "block_average_predictor(C, 2, 3)"),
    _api("blocks-k-zero", r"k=0 must be >= 1", "block_average_predictor(C, 2, 0)"),
    _api("flipped-average-flip-zero", r"flip=0 must lie in",
         "flipped_average_predictor(C, 2, 2, 0)"),
    _api("majority-epsilon-negative", r"epsilon=-1 must be >= 0",
         "private_majority_predictor(C, 2, 2, -1)"),
    _api("generic-n-zero", r"n=0 must be >= 1", "generic_predictor(C, 0, 1)"),
    _api("erm-unlabeled", r"data\[0\]=.*not ⊥", "erm(C, ((0, BOTTOM),))"),
    _api("erm-label-two", r"data\[1\]=\(1, 2\)", "erm(C, ((0, 1), (1, 2)))"),
    _api("erm-data-not-iterable", r"data=5 must be", "erm(C, 5)"),
    # ---- 002 Algorithm 3 (relabel_prediction.py) ------------------------------------------------
    _api("relabel-m-above-n", r"m=3 must be <= 2", "relabel_predictor(C, 2, 3, 1, 1, 1, '1/4')"),
    _api("relabel-k-above-n", r"k=3 must be <= 2", "relabel_predictor(C, 2, 1, 1, 3, 1, '1/4')"),
    _api("relabel-k-zero", r"k=0 must be >= 1", "relabel_core_predictor(C, 2, 1, 1, 0, 1)"),
    _api("relabel-epsilon1-negative", r"epsilon1=-1 must be >= 0",
         "relabel_predictor(C, 2, 1, -1, 1, 1, '1/4')"),
    _api("relabel-epsilon2-nan", r"epsilon2=nan",
         "relabel_predictor(C, 2, 1, 1, 1, float('nan'), '1/4')"),
    _api("relabel-flip-above-half", r"flip=3/5 must be <= 1/2",
         "relabel_predictor(C, 2, 1, 1, 1, 1, '0.6')"),
    _api("relabel-class-none", r"C=None must be a ConceptClass",
         "relabel_core_predictor(None, 2, 1, 1, 2, 1)"),
    _api("relabel-core-gamma-epsilon1-negative", r"epsilon1=-1 must be >= 0",
         "relabel_core_gamma(2, 1, -1, 2, 1)"),
    _api("relabel-core-privacy-precision-garbage", r"precision='high' must be an int",
         "relabel_core_privacy(2, 1, 1, 2, 1, precision='high')"),
    _api("relabel-law-label-two", r"data\[0\]=\(0, 2\)",
         "relabel_predictor(C, 2, 1, 1, 1, 1, '1/4').law(((0, 2), (1, 0)), 0)"),
    # the proof's formulas divide by n − m (ε(k) has m/(n − m)): m = n must be refused first
    _api("relabel-refined-epsilon-m-equals-n", r"m=2 must be <= 1",
         "refined_epsilon(2, 2, 1, 1, 0)"),
    _api("relabel-refined-epsilon-n-one", r"n=1 must be >= 2", "refined_epsilon(1, 1, 1, 1, 0)"),
    _api("relabel-stated-claim-m-above-half", r"m=3 must be <= 2",
         "stated_core_claim(4, 3, 1, 1, '1/10')"),
    _api("relabel-stated-claim-delta-above-one", r"delta",
         "stated_core_claim(4, 1, 1, 1, '3/2')"),
    _api("relabel-stated-claim-epsilon2-named", r"epsilon2",
         "stated_core_claim(4, 1, 1, -1, 0)"),
    # ---- the exact per-query auditor (privref.audits.prediction) -------------------------------------
    _api("audit-universe-no-pairs", r"universe .* has no neighboring pairs",
         "audit_prediction(A1, Universe(S, (0,)), [0])"),
    _api("audit-universe-list", r"universe=.* must be a", "audit_prediction(A1, [S], [0])"),
    _api("audit-universe-wrong-size", r"data has 3 examples.*n=2",
         "audit_prediction(A1, Universe(S, (3,)), [0])"),
    _api("audit-universe-too-large", r"limit=2000000", "audit_prediction(A1, Universe(("
         "(0, 0), (0, 1), (1, 0), (1, 1)), (12,)), [0])", error=_BIG),
    _api("audit-queries-empty", r"queries=\(\) must hold", "audit_prediction(A1, U, [])"),
    _api("audit-query-outside-domain", r"x=5 must be a point", "audit_prediction(A1, U, [5])"),
    _api("audit-precision-low", r"precision=8 must be >= 32",
         "audit_prediction(A1, U, [0], precision=8)"),
    _api("audit-precision-garbage", r"precision='high' must be an int",
         "audit_prediction(A1, U, [0], precision='high')"),
    _api("audit-max-precision-below", r"max_precision=40 must be >= precision=64",
         "audit_prediction(A1, U, [0], precision=64, max_precision=40)"),
    _api("audit-max-paths-zero", r"max_paths=0 must be >= 1",
         "audit_prediction(A1, U, [0], max_paths=0)"),
    _api("audit-pair-limit-zero", r"pair_limit=0 must be >= 1",
         "audit_prediction(A1, U, [0], pair_limit=0)"),
    _api("audit-pair-limit-garbage", r"pair_limit='x' must be an int",
         "audit_prediction(A1, U, [0], pair_limit='x')"),
    _api("audit-claim-float", r"claim=0\.5 must be", "audit_prediction(A1, U, [0], claim=0.5)"),
    _api("audit-predictor-string", r"predictor='A1' must be a Predictor",
         "audit_prediction('A1', U, [0])"),
    _api("audit-pair-not-neighbors", r"not neighbors", "audit_prediction_pair(A1, S, "
         "((1, 1), (0, 0)), [0])", error="NotNeighboring"),
    _api("audit-pair-equal", r"not neighbors", "audit_prediction_pair(A1, S, S, [0])",
         error="NotNeighboring"),
    _api("audit-pair-dataset-not-iterable", r"a=5 must be",
         "audit_prediction_pair(A1, 5, S, [0])"),
    _api("audit-pair-precision-garbage", r"precision=None must be an int",
         "audit_prediction_pair(A1, S, ((0, 0), (1, 0)), [0], precision=None)"),
    # ---- concept classes: empty, or too large to enumerate (privref.reference.concepts) ---------------
    _api("class-explicit-empty", r"concepts=\[\] must hold", "explicit(range(2), [])"),
    _api("class-point-functions-empty-domain", r"domain=\(\) must hold", "point_functions(())"),
    _api("class-thresholds-on-zero", r"n_points=0 must be >= 1", "thresholds_on(0)"),
    _api("class-all-functions-40-points", r"concepts .*limit=4194304",
         "explicit(range(40), itertools.product((0, 1), repeat=40))", error=_BIG),
    _api("class-thresholds-d-40", r"d=40 .*limit=4194304", "thresholds(40)", error=_BIG),
    _api("class-point-functions-huge", r"domain of 5000 points .*limit=",
         "point_functions(range(5000))", error=_BIG),
    _api("class-limit-zero", r"limit=0 must be >= 1", "thresholds_on(3, limit=0)"),
]
