"""Malformed inputs to the black-box auditor: ``privref audit blackbox`` flags and ``assert_private``.

Each case must end in one clean error line naming the argument (see harness.py).  Targets are
written into the case's empty working directory (``files=``); budgets stay tiny (``--samples``
of a few hundred, ``--workers 1``) so the table runs in seconds.
"""

from __future__ import annotations

from .harness import EXIT_INTERNAL, EXIT_TARGET, Case

MECH = '''
import time
import numpy as np

def laplace(data, rng):
    return sum(data) + rng.laplace(0.0, 1.0)

def rr(data, rng):
    b = data[0]
    return b if rng.random() < 0.75 else 1 - b

def boom(data, rng):
    raise RuntimeError("sensor offline")

def sleepy(data, rng):
    time.sleep(3600)
    return 0

def one_arg(data):
    return 0

def no_args():
    return 0

def unhashable(data, rng):
    return {"a": 1}

def huge(data, rng):
    return 10**400

def set_out(data, rng):
    return {1, 2}

def mixed(data, rng):
    return 0 if rng.random() < 0.5 else "x"

def short_vec(data, rng, size):
    return np.zeros(max(size - 1, 0))

NOT_CALLABLE = 3
'''

FILES = {"mech.py": MECH}
BROKEN: dict[str, str | bytes] = {"broken.py": "def f(data, rng):\n    return (\n"}

BB = ("audit", "blackbox")
LAP = (*BB, "mech.py:laplace", "--epsilon", "1", "--workers", "1", "--quiet", "--seed", "1")
LAP_PAIR = (*LAP, "--pair", "[0]", "[1]", "--samples", "200")
BOOM = (*BB, "mech.py:boom", "--epsilon", "1", "--workers", "1", "--quiet", "--seed", "1",
        "--pair", "[0]", "[1]")

API_HEAD = ("from privref.audits.blackbox.api import assert_private\n"
            "import sys; sys.path.insert(0, '{cwd}')\n"
            "from mech import laplace, rr, sleepy, boom, unhashable, one_arg\n")


def _cli(id: str, names: str, *argv: str, exit_code: int = 2, files: dict[str, str | bytes] | None
         = None, stderr: str | None = None) -> Case:
    return Case(id=f"blackbox-cli-{id}", names=names, argv=argv, exit_code=exit_code,
                files=FILES if files is None else {**FILES, **files}, stderr=stderr)


def _api(id: str, names: str, code: str, error: str = "PrivrefError") -> Case:
    return Case(id=f"blackbox-api-{id}", names=names, api=API_HEAD + code, error=error,
                files=FILES)


_CHECKPOINT_TAMPER = '''
from pathlib import Path
from privref.audits.blackbox import AuditConfig, run_audit, target_from_callable
from privref.reference.reals import rational
cp = Path("{cwd}") / "cp.jsonl"
target = target_from_callable(rr)
config = AuditConfig(epsilon=rational(2), samples=400, seed=3, chunk_size=100, checkpoint=cp)
run_audit(target, config, [((0,), (1,))])
raw = bytearray(cp.read_bytes())
MODE
try:
    run_audit(target, config, [((0,), (1,))])
finally:
    cp.unlink()
'''

_FLIP = ("i = raw.index(b'\"data\"', raw.index(b'\\n') + 1) + 12\n"
         "raw[i] = ord('A') if raw[i] != ord('A') else ord('B')\ncp.write_bytes(bytes(raw))")
_TRUNCATE = "cp.write_bytes(bytes(raw[: len(raw) * 2 // 3]))"
_HEADER_EDIT = "cp.write_bytes(bytes(raw).replace(b'\"seed\": 3', b'\"seed\": 4', 1))"

CASES: list[Case] = [
    # ---- pairs: relation, group privacy, JSON --------------------------------------------------
    _cli("sequential-first-round-above-budget",
         r"--first-round=2000 exceeds the budget --samples=1000: no budget left", *LAP,
         "--pair", "[0]", "[1]", "--samples", "1000", "--sequential", "--first-round", "2000"),
    _cli("sequential-first-round-one", r"--first-round=1 must be an int >= 2", *LAP_PAIR,
         "--sequential", "--first-round", "1"),
    _cli("sequential-first-round-text", r"--first-round='soon' must be an int", *LAP_PAIR,
         "--sequential", "--first-round", "soon"),
    _cli("sequential-first-round-without-sequential", r"--first-round needs --sequential",
         *LAP_PAIR, "--first-round", "100"),
    _cli("sequential-with-checkpoint", r"--checkpoint cannot be used with --sequential",
         *LAP_PAIR, "--sequential", "--checkpoint", "ck.jsonl"),
    _cli("pair-wrong-relation", r"not neighbo.*substitution", *LAP, "--no-float-events",
         "--pair", "[0,0,0]", "[1,1,1]", "--relation", "substitution", "--samples", "200"),
    _cli("pair-sizes-differ", r"\[0\].*\[5, 5, 5\].*not neighbo", *LAP, "--pair", "[0]",
         "[5,5,5]", "--samples", "200"),
    _cli("pair-add-remove-not-neighbors", r"not neighbo.*add.remove", *LAP, "--pair", "[0]",
         "[1]", "--relation", "add-remove", "--samples", "200"),
    _cli("pair-add-remove-without-relation",
         r"--pair \[0, 1\] vs \[0\] is an add-remove pair.*state it with --relation add-remove",
         *LAP, "--pair", "[0, 1]", "[0]", "--samples", "200"),
    _api("pair-add-remove-without-relation",
         r"pairs entry \[0, 1\] vs \[0\] is an add-remove pair.*relation='add-remove'",
         "assert_private(laplace, epsilon=1, pairs=[([0, 1], [0])], samples=200)"),
    _cli("pair-equal", r"--pair.*equal", *LAP, "--pair", "[0]", "[0]", "--samples", "200"),
    _cli("pair-empty-datasets", r"--pair.*equal", *LAP, "--pair", "[]", "[]", "--samples", "200"),
    _cli("pair-bad-json", r"--pair.*not valid JSON", *LAP, "--pair", "[0", "[1]"),
    _cli("pair-not-a-list", r"--pair.*must be a JSON list", *LAP, "--pair", "[0]", "1"),
    _cli("pair-object-entry", r"--pair.*JSON object", *LAP, "--pair", '[{"a": 1}]', "[1]"),
    _cli("pair-overflow-1e400", r"--pair.*finite", *LAP, "--pair", "[1e400]", "[0]"),
    _cli("pair-nan", r"--pair.*finite", *LAP, "--pair", "[NaN]", "[0]"),
    _cli("pair-infinity", r"--pair.*finite", *LAP, "--pair", "[0]", "[-Infinity]"),
    _cli("pair-huge-dataset", r"--pair.*must be <=", *LAP, "--pair",
         "[" + ",".join(["0"] * 20_001) + "]", "[1]"),
    _cli("pair-duplicate-warns", r"target mech\.py:boom raised", *BOOM, "--pair", "[0]", "[1]",
         "--samples", "200", stderr=r"(?i)duplicate", exit_code=EXIT_TARGET),
    _cli("pair-and-search", r"--search and --pair", *LAP_PAIR, "--search"),
    _cli("group-zero", r"--group=0 must be", *LAP_PAIR, "--group", "0"),
    _cli("group-negative", r"--group=-2 must be", *LAP_PAIR, "--group", "-2"),
    _cli("group-text", r"--group='two' must be", *LAP_PAIR, "--group", "two"),
    _cli("group-too-far", r"distance 3.*--group 2", *LAP, "--pair", "[0,0,0]", "[1,1,1]",
         "--group", "2", "--samples", "200"),
    _cli("group-vacuous-delta", r"--group.*delta", *LAP_PAIR, "--delta", "1/2", "--group", "3"),
    _cli("relation-unknown", r"--relation='foo' must be one of", *LAP_PAIR, "--relation", "foo"),
    _cli("relation-not-searchable", r"--relation.*label-substitution.*search", *LAP,
         "--relation", "label-substitution", "--samples", "200"),
    _cli("public-private-bad-size", r"--relation.*public-private", *LAP_PAIR, "--relation",
         "public-private:x"),
    # ---- search space ---------------------------------------------------------------------------
    _cli("elements-empty", r"elements", *LAP, "--elements", "[]"),
    _cli("elements-nonfinite", r"--elements.*finite", *LAP, "--elements", "[0, 1e400]"),
    _cli("sizes-zero", r"sizes", *LAP, "--sizes", "[0]"),
    _cli("sizes-text", r"--sizes", *LAP, "--sizes", '["a"]'),
    _cli("sizes-huge", r"--sizes.*must be <=", *LAP, "--sizes", "[10000000]"),
    _cli("screening-zero", r"--screening-samples=0 must be", *LAP, "--screening-samples", "0"),
    _cli("confirm-zero", r"--confirm=0 must be", *LAP, "--confirm", "0"),
    # ---- budgets and resources ------------------------------------------------------------------
    _cli("samples-negative", r"--samples=-5 must be", *LAP, "--pair", "[0]", "[1]",
         "--samples", "-5"),
    _cli("samples-zero", r"--samples=0 must be", *LAP, "--pair", "[0]", "[1]", "--samples", "0"),
    _cli("samples-text", r"--samples='many' must be", *LAP, "--pair", "[0]", "[1]",
         "--samples", "many"),
    _cli("samples-float", r"--samples='1.5' must be", *LAP, "--pair", "[0]", "[1]",
         "--samples", "1.5"),
    _cli("samples-huge", r"--samples=10\*\*12 must be <=", *LAP, "--pair", "[0]", "[1]",
         "--samples", "10**12"),
    _cli("samples-huge-digits", r"--samples=.*must be <=", *LAP, "--pair", "[0]", "[1]",
         "--samples", "1000000000000"),
    _cli("samples-low-power-warns", r"target mech\.py:boom raised", *BOOM, "--samples", "2",
         stderr=r"LOW-POWER", exit_code=EXIT_TARGET),
    _cli("workers-zero", r"--workers=0 must be", *LAP_PAIR, "--workers", "0"),
    _cli("workers-huge", r"--workers=10000 must be <=", *LAP_PAIR, "--workers", "10000"),
    _cli("timeout-zero", r"--timeout=0 must be", *LAP_PAIR, "--timeout", "0"),
    _cli("timeout-text", r"--timeout='soon' must be", *LAP_PAIR, "--timeout", "soon"),
    _cli("timeout-nan", r"--timeout=nan must be", *LAP_PAIR, "--timeout", "nan"),
    _cli("sleepy-target-times-out", r"mech\.py:sleepy.*timeout=2", *BB, "mech.py:sleepy",
         "--epsilon", "1", "--pair", "[0]", "[1]", "--samples", "200", "--workers", "1",
         "--timeout", "2", "--quiet", exit_code=EXIT_TARGET),
    _cli("sleepy-target-times-out-pool", r"mech\.py:sleepy.*timeout=2", *BB, "mech.py:sleepy",
         "--epsilon", "1", "--pair", "[0]", "[1]", "--pair", "[0,0]", "[0,1]", "--samples", "200",
         "--workers", "2", "--timeout", "2", "--quiet", exit_code=EXIT_TARGET),
    # ---- claim ----------------------------------------------------------------------------------
    _cli("epsilon-negative", r"--epsilon.*must be >= 0", *BB, "mech.py:laplace", "--epsilon",
         "-1", "--pair", "[0]", "[1]"),
    _cli("epsilon-nan", r"--epsilon", *BB, "mech.py:laplace", "--epsilon", "nan", "--pair",
         "[0]", "[1]"),
    _cli("epsilon-inf", r"--epsilon", *BB, "mech.py:laplace", "--epsilon", "inf", "--pair",
         "[0]", "[1]"),
    _cli("epsilon-text", r"--epsilon.*'abc'", *BB, "mech.py:laplace", "--epsilon", "abc",
         "--pair", "[0]", "[1]"),
    _cli("epsilon-missing", r"--epsilon is required", *BB, "mech.py:laplace", "--pair", "[0]",
         "[1]"),
    _cli("epsilon-huge-devfull", r"--json.*/dev/full", *LAP_PAIR[:4], "1e9", *LAP_PAIR[5:],
         "--json", "/dev/full", exit_code=EXIT_INTERNAL),
    _cli("delta-one", r"--delta.*must be < 1", *LAP_PAIR, "--delta", "1"),
    _cli("delta-negative", r"--delta.*must be >= 0", *LAP_PAIR, "--delta=-1/10"),
    _cli("delta-text", r"--delta.*'abc'", *LAP_PAIR, "--delta", "abc"),
    _cli("delta-nan", r"--delta", *LAP_PAIR, "--delta", "nan"),
    _cli("point-negative-epsilon", r"--point -1 0: epsilon=-1 must be >= 0", *LAP_PAIR,
         "--point", "-1", "0"),
    _cli("point-nan-epsilon", r"--point nan 0: epsilon='nan' is not a number", *LAP_PAIR,
         "--point", "nan", "0"),
    _cli("point-delta-one", r"--point 1 1: delta=1 must be < 1", *LAP_PAIR, "--point", "1", "1"),
    _cli("confidence-zero", r"--confidence=0 must", *LAP_PAIR, "--confidence", "0"),
    _cli("confidence-one", r"--confidence=1 must", *LAP_PAIR, "--confidence", "1"),
    _cli("confidence-above-one", r"--confidence=1.5 must", *LAP_PAIR, "--confidence", "1.5"),
    _cli("confidence-nan", r"--confidence", *LAP_PAIR, "--confidence", "nan"),
    _cli("confidence-too-close-to-one", r"--confidence=0.99999999999999999 must be <=",
         *LAP_PAIR, "--confidence", "0.99999999999999999"),
    _cli("seed-negative", r"--seed=-1 must be", *LAP_PAIR, "--seed", "-1"),
    _cli("seed-text", r"--seed='x' must be", *LAP_PAIR, "--seed", "x"),
    _cli("seed-huge", r"--seed=.*must be <=", *LAP_PAIR, "--seed", str(2**200)),
    # ---- targets --------------------------------------------------------------------------------
    _cli("target-no-colon", r"target='mech\.py' must look like", *BB, "mech.py", "--epsilon", "1",
         "--pair", "[0]", "[1]"),
    _cli("target-unknown-module", r"cannot import target 'no_such_mod_xyz:f'", *BB,
         "no_such_mod_xyz:f", "--epsilon", "1", "--pair", "[0]", "[1]"),
    _cli("target-missing-file", r"file nothere\.py does not exist", *BB, "nothere.py:f",
         "--epsilon", "1", "--pair", "[0]", "[1]"),
    _cli("target-unknown-attribute", r"no attribute 'nope'", *BB, "mech.py:nope", "--epsilon",
         "1", "--pair", "[0]", "[1]"),
    _cli("target-not-callable", r"NOT_CALLABLE.*not callable", *BB, "mech.py:NOT_CALLABLE",
         "--epsilon", "1", "--pair", "[0]", "[1]"),
    _cli("target-syntax-error", r"cannot import target 'broken\.py:f'.*SyntaxError", *BB,
         "broken.py:f", "--epsilon", "1", "--pair", "[0]", "[1]", files=BROKEN),
    _cli("target-raises", r"target mech\.py:boom raised.*sensor offline", *BOOM,
         "--samples", "200", exit_code=EXIT_TARGET),
    _cli("target-one-arg", r"mech\.py:one_arg must accept \(data, rng\)", *BB, "mech.py:one_arg",
         "--epsilon", "1", "--pair", "[0]", "[1]"),
    _cli("target-no-args", r"mech\.py:no_args must accept \(data, rng\)", *BB, "mech.py:no_args",
         "--epsilon", "1", "--pair", "[0]", "[1]"),
    _cli("target-unhashable", r"mech\.py:unhashable returned \{'a': 1\}.*dict", *BB,
         "mech.py:unhashable", "--epsilon", "1", "--pair", "[0]", "[1]", "--samples", "200",
         "--workers", "1", exit_code=EXIT_TARGET),
    _cli("target-huge-int", r"mech\.py:huge returned.*10\*\*", *BB, "mech.py:huge", "--epsilon",
         "1", "--pair", "[0]", "[1]", "--samples", "200", "--workers", "1", exit_code=EXIT_TARGET),
    _cli("target-set", r"mech\.py:set_out returned \{1, 2\}.*frozenset", *BB, "mech.py:set_out",
         "--epsilon",
         "1", "--pair", "[0]", "[1]", "--samples", "200", "--workers", "1", exit_code=EXIT_TARGET),
    _cli("target-mixed-kinds", r"mech\.py:mixed returned inconsistent", *BB, "mech.py:mixed",
         "--epsilon", "1", "--pair", "[0]", "[1]", "--samples", "200", "--workers", "1",
         exit_code=EXIT_TARGET),
    _cli("target-vector-length", r"mech\.py:short_vec returned \d+ outcomes", *BB,
         "mech.py:short_vec", "--epsilon", "1", "--pair", "[0]", "[1]", "--samples", "200",
         "--workers", "1", exit_code=EXIT_TARGET),
    _cli("target-unknown-third-party", r"third-party", *BB, "nolib:count-laplace",
         "--epsilon", "1"),
    # ---- outputs --------------------------------------------------------------------------------
    _cli("json-is-directory", r"--json.*directory", *LAP_PAIR, "--json", "."),
    _cli("json-missing-folder", r"--json.*does not exist", *LAP_PAIR, "--json", "no/such/r.json"),
    _cli("json-unwritable", r"--json.*/sys/r\.json", *LAP_PAIR, "--json", "/sys/r.json"),
    _cli("json-dev-full", r"--json.*/dev/full", *LAP_PAIR, "--json", "/dev/full",
         exit_code=EXIT_INTERNAL),
    _cli("html-is-directory", r"--html.*directory", *LAP_PAIR, "--html", "."),
    _cli("html-unwritable", r"--html.*/proc/r\.html", *LAP_PAIR, "--html", "/proc/r.html"),
    _cli("html-dev-full", r"--html.*/dev/full", *LAP_PAIR, "--html", "/dev/full",
         exit_code=EXIT_INTERNAL),
    _cli("checkpoint-is-directory", r"--checkpoint.*directory", *LAP_PAIR, "--checkpoint", "."),
    _cli("checkpoint-missing-folder", r"--checkpoint.*does not exist", *LAP_PAIR,
         "--checkpoint", "no/such/cp.jsonl"),
    _cli("checkpoint-garbage", r"--checkpoint.*cp\.bin.*not a privref checkpoint", *LAP_PAIR,
         "--checkpoint", "cp.bin", files={"cp.bin": bytes(range(256)) * 4}),
    _cli("checkpoint-text-garbage", r"--checkpoint.*not a privref checkpoint", *LAP_PAIR,
         "--checkpoint", "cp.jsonl", files={"cp.jsonl": "hello\nworld\n"}),
    _cli("checkpoint-forged-header", r"--checkpoint.*cp\.jsonl", *LAP_PAIR, "--checkpoint",
         "cp.jsonl", files={"cp.jsonl": '{"privref_checkpoint": 1, "fingerprint": {}}\n'}),
    # ---- the Python API -------------------------------------------------------------------------
    _api("config-negative-epsilon", r"epsilon=-1 must be >= 0",
         "from privref.audits.blackbox import AuditConfig\nAuditConfig(epsilon=-1)"),
    _api("config-nan-epsilon", r"epsilon=nan must be a finite number",
         "from privref.audits.blackbox import AuditConfig\nAuditConfig(epsilon=float('nan'))"),
    _api("config-zcdp-rho-zero", r"rho=0 must be an exact number > 0",
         "from fractions import Fraction\nfrom privref.audits.blackbox import AuditConfig\n"
         "from privref.reference.privacy import ZCDPClaim\n"
         "AuditConfig(ZCDPClaim(Fraction(0)))"),
    _api("pair-of-numbers", r"pairs.*\(0, 1\).*datasets",
         "assert_private(laplace, epsilon=1, pairs=[(0, 1)], samples=200)"),
    _api("pair-not-neighboring", r"\[0\].*\[5, 5, 5\].*not neighbo",
         "assert_private(laplace, epsilon=1, pairs=[([0], [5, 5, 5])], samples=200)"),
    _api("pairs-empty", r"pairs=\[\] must",
         "assert_private(laplace, epsilon=1, pairs=[], samples=200)"),
    _api("pairs-string", r"pairs",
         "assert_private(laplace, epsilon=1, pairs='abc', samples=200)"),
    _api("pair-one-dataset", r"pairs entry",
         "assert_private(laplace, epsilon=1, pairs=[([0],)], samples=200)"),
    _api("pair-nonfinite", r"pairs.*finite",
         "assert_private(laplace, epsilon=1, pairs=[([float('inf')], [0])], samples=200)"),
    _api("pair-unhashable-entry", r"pairs.*hashable",
         "assert_private(laplace, epsilon=1, pairs=[([[0]], [[1]])], samples=200)"),
    _api("relation-unknown", r"relation='foo'",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], relation='foo', samples=200)"),
    _api("group-zero", r"group=0 must be",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], group=0, samples=200)"),
    _api("epsilon-negative", r"epsilon=-1 must be >= 0",
         "assert_private(laplace, epsilon=-1, pairs=[([0], [1])], samples=200)"),
    _api("epsilon-nan", r"epsilon=nan",
         "assert_private(laplace, epsilon=float('nan'), pairs=[([0], [1])], samples=200)"),
    _api("epsilon-none", r"epsilon is required: the mechanism laplace declares no privacy claim",
         "assert_private(laplace, epsilon=None, pairs=[([0], [1])], samples=200)"),
    _api("delta-one", r"delta=1 must be < 1",
         "assert_private(laplace, epsilon=1, delta=1, pairs=[([0], [1])], samples=200)"),
    _api("confidence-above-one", r"confidence=3/2 must",
         "from fractions import Fraction\n"
         "assert_private(laplace, epsilon=1, confidence=Fraction(3, 2), pairs=[([0], [1])], "
         "samples=200)"),
    _api("confidence-float-one", r"confidence=1 must",
         "assert_private(laplace, epsilon=1, confidence=0.99999999999999999, "
         "pairs=[([0], [1])], samples=200)"),
    _api("confidence-nan", r"confidence=nan",
         "assert_private(laplace, epsilon=1, confidence=float('nan'), pairs=[([0], [1])], "
         "samples=200)"),
    _api("samples-zero", r"samples=0 must be",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=0)"),
    _api("samples-huge", r"samples=10\*\*12 must be <=",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=10**12)"),
    _api("samples-float", r"samples=1.5 must be",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=1.5)"),
    _api("workers-huge", r"workers=100000 must be <=",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=200, workers=100000)"),
    _api("seed-text", r"seed='x' must be",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=200, seed='x')"),
    _api("timeout-negative", r"timeout=-1 must be",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=200, timeout=-1)"),
    _api("sleepy-times-out", r"sleepy.*timeout=1", "assert_private(sleepy, epsilon=1, "
         "pairs=[([0], [1])], samples=200, timeout=1)", error="TargetCallError"),
    _api("not-callable", r"not callable",
         "assert_private(3, epsilon=1, pairs=[([0], [1])], samples=200)"),
    _api("one-arg-target", r"must accept \(data, rng\)",
         "assert_private(one_arg, epsilon=1, pairs=[([0], [1])], samples=200)"),
    _api("unhashable-outcome", r"hashable",
         "assert_private(unhashable, epsilon=1, pairs=[([0], [1])], samples=200)"),
    _api("target-raises", r"sensor offline",
         "assert_private(boom, epsilon=1, pairs=[([0], [1])], samples=200)"),
    _api("search-label-relation", r"relation.*label.*search",
         "from privref.reference.neighbors import LabelSubstitution\n"
         "assert_private(laplace, epsilon=1, relation=LabelSubstitution(), samples=200)"),
    _api("sequential-first-round-without-sequential", r"first_round=500 needs sequential=True",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=1000, first_round=500)"),
    _api("sequential-first-round-above-budget",
         r"first_round.*=2000 exceeds the budget samples=1000: no budget left",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=1000, sequential=True, "
         "first_round=2000)"),
    _api("sequential-first-round-zero", r"first_round.*=0 must be an int >= 2",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=1000, sequential=True, "
         "first_round=0)"),
    _api("sequential-not-bool", r"sequential='yes' must be True or False",
         "assert_private(laplace, epsilon=1, pairs=[([0], [1])], samples=1000, sequential='yes')"),
    _api("checkpoint-flipped-byte", r"checkpoint.*(tampered|digest|corrupt)",
         _CHECKPOINT_TAMPER.replace("MODE", _FLIP), error="CheckpointError"),
    _api("checkpoint-truncated", r"checkpoint.*(truncated|digest|corrupt|tampered)",
         _CHECKPOINT_TAMPER.replace("MODE", _TRUNCATE), error="CheckpointError"),
    _api("checkpoint-header-edited", r"checkpoint.*(tampered|digest|corrupt|other parameters)",
         _CHECKPOINT_TAMPER.replace("MODE", _HEADER_EDIT), error="CheckpointError"),
    # curves (issue 36 item 2) and mu-GDP claims: refused before any sampling, exit 2
    _cli("curves-empty-grid", r"--curve-epsilons '' must be a non-empty comma-separated list",
         *LAP_PAIR, "--curve-epsilons", ""),
    _cli("curves-grid-hole", r"--curve-epsilons '0,,1' must be a non-empty", *LAP_PAIR,
         "--curve-epsilons", "0,,1"),
    _cli("curves-negative-epsilon", r"--curve-epsilons: epsilons\[0\]=-1 must lie in \[0, 64\]",
         *LAP_PAIR, "--curve-epsilons=-1,1"),
    _cli("curves-huge-epsilon", r"--curve-epsilons: epsilons\[1\]=65 must lie in \[0, 64\]",
         *LAP_PAIR, "--curve-epsilons", "1,65"),
    _cli("curves-grid-too-large", r"--curve-epsilons: 257 values; at most 256", *LAP_PAIR,
         "--curve-epsilons", ",".join(str(k) for k in range(257))),
    _cli("curves-nan-epsilon", r"--curve-epsilons: .*'nan'", *LAP_PAIR, "--curve-epsilons",
         "nan"),
    _cli("curves-order-one", r"--orders: orders\[0\]=1 must lie in \(1, 256\]", *LAP_PAIR,
         "--orders", "1"),
    _cli("curves-order-huge", r"--orders: orders\[0\]=257 must lie in \(1, 256\]", *LAP_PAIR,
         "--orders", "257"),
    _cli("curves-orders-empty", r"--orders '' must be a non-empty", *LAP_PAIR, "--orders", ""),
    _cli("curves-orders-too-many", r"--orders: 33 values; at most 32", *LAP_PAIR, "--orders",
         ",".join(str(k) for k in range(2, 35))),
    _cli("mu-zero", r"--mu: mu=0 must be an exact number > 0", *LAP_PAIR[:3], *LAP_PAIR[5:],
         "--mu", "0"),
    _cli("mu-huge", r"--mu: mu=65 must be <= MAX_GDP_MU=64", *LAP_PAIR[:3], *LAP_PAIR[5:],
         "--mu", "65"),
    _cli("mu-and-epsilon", r"--mu and --epsilon exclude each other", *LAP_PAIR, "--mu", "1"),
    _cli("mu-delta-zero", r"--delta .*must lie in \(0, 1\)", *LAP_PAIR[:3], *LAP_PAIR[5:],
         "--mu", "1", "--delta", "0"),
    _api("curves-empty-grid-api", r"epsilons=\(\) is empty",
         "from privref.audits.blackbox.curves import CurveRequest\nCurveRequest(epsilons=())",
         error="InvalidArgument"),
]
