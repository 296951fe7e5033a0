"""Hostile and careless black-box targets (issue 32): a run that did not check must never exit 0.

A target may exit, kill its process, ignore the alarm, swallow every exception, fork, return
nothing, return values compared by identity or too large, or sit where a report would be
written; each case ends in one clean error line with its documented status (5: the target
failed, 2: usage), or, for a valid but unusual target, in the verdict its law implies
(``verdict=``).  Budgets stay tiny (``--samples`` of a few hundred, ``--timeout 0.5``).
"""

from __future__ import annotations

from .harness import EXIT_TARGET, EXIT_VIOLATION, Case

HOSTILE = '''
import os, signal, sys, time
import numpy as np

def exit0(data, rng):
    sys.exit(0)

def exit3(data, rng):
    raise SystemExit(3)

def os_exit(data, rng):
    os._exit(0)

def late_exit(data, rng):
    if data[0] == 1 and rng.random() < 0.01:
        os._exit(0)
    return data[0]

def kill_self(data, rng):
    os.kill(os.getpid(), signal.SIGKILL)

def none(data, rng):
    return None

def none_vec(data, rng, size):
    return None

def gen(data, rng):
    yield data[0]

class Plain:
    pass

def plain(data, rng):
    return Plain()

def func(data, rng):
    return lambda: 0

def wide(data, rng):
    return list(range(1000))

def wide_vec(data, rng, size):
    return np.zeros((size, 10_000))

def nested(data, rng):
    return [[0] * 200] * 200

def big_str(data, rng):
    return "x" * 10_000_000

def ignores_alarm(data, rng):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    time.sleep(600)
    return 0

def swallows(data, rng):
    start = time.monotonic()
    while time.monotonic() - start < 600:
        try:
            time.sleep(600)
        except BaseException:
            pass
    return 0

def bare(data, rng):
    while True:
        try:
            time.sleep(600)
        except:  # noqa: E722 - the point of the case
            pass

def sleeper(data, rng):
    time.sleep(600)
    return 0

def neg_zero(data, rng):
    return -0.0 if data[0] else 0.0
'''

PROGRAM = '''
from fractions import Fraction
from privref import bernoulli

def randomized_response(data, keep=Fraction(3, 4)):
    kept = yield from bernoulli(keep)
    return data[0] if kept else 1 - data[0]
'''

AT_IMPORT_EXIT = "import sys\nsys.exit(0)\ndef f(data, rng):\n    return 0\n"
AT_IMPORT_OS_EXIT = "import os\nos._exit(0)\ndef f(data, rng):\n    return 0\n"

FILES: dict[str, str | bytes] = {"h.py": HOSTILE, "prog.py": PROGRAM,
                                 "exits.py": AT_IMPORT_EXIT, "osexits.py": AT_IMPORT_OS_EXIT}

RUN = ("--epsilon", "1", "--relation", "substitution", "--pair", "[0]", "[1]", "--samples", "400",
       "--seed", "1", "--quiet", "--workers", "1")


def _bb(target: str, *extra: str, run: tuple[str, ...] = RUN) -> tuple[str, ...]:
    return ("audit", "blackbox", target, *run, *extra)


def _failed(case_id: str, target: str, names: str, *extra: str) -> Case:
    return Case(case_id, names, argv=_bb(target, *extra), exit_code=EXIT_TARGET, files=FILES)


CASES = [
    # a target that exits or dies: status 5, never 0
    _failed("hostile-sys-exit-0", "h.py:exit0", r"raised on data=\[0\]: SystemExit: 0"),
    _failed("hostile-system-exit-3", "h.py:exit3", r"SystemExit: 3"),
    _failed("hostile-os-exit", "h.py:os_exit", r"ended \(exit status 0\).*nothing was checked"),
    _failed("hostile-os-exit-pool", "h.py:os_exit", r"ended \(exit status 0\)", "--workers", "2"),
    _failed("hostile-late-exit-pool", "h.py:late_exit", r"ended \(exit status 0\)",
            "--workers", "2"),
    _failed("hostile-kill-self", "h.py:kill_self", r"ended \(killed by SIGKILL\)"),
    _failed("hostile-os-exit-at-import", "osexits.py:f", r"ended \(exit status 0\)"),
    Case("hostile-sys-exit-at-import", r"cannot import target 'exits.py:f': SystemExit: 0",
         argv=_bb("exits.py:f"), files=FILES),
    # outcomes that cannot be compared, or nothing at all
    _failed("hostile-none", "h.py:none", r"returned None \(draw #0\)"),
    _failed("hostile-none-vectorized", "h.py:none_vec", r"is vectorized but returned None"),
    _failed("hostile-generator-object", "h.py:gen", r"a generator is compared by identity"),
    _failed("hostile-plain-object", "h.py:plain", r"a Plain is compared by identity"),
    _failed("hostile-function-object", "h.py:func", r"a function is compared by identity"),
    _failed("hostile-generator-object-pool", "h.py:gen", r"compared by identity",
            "--workers", "2"),
    # outcomes too large: refused on the first draw
    _failed("hostile-wide-list", "h.py:wide", r"1000 entries, more than MAX_OUTCOME_ENTRIES=256"),
    _failed("hostile-wide-vectorized", "h.py:wide_vec",
            r"of 10000 entries on data=\[0\], more than MAX_OUTCOME_ENTRIES=256"),
    _failed("hostile-nested", "h.py:nested", r"40000 entries, more than MAX_OUTCOME_ENTRIES"),
    _failed("hostile-huge-string", "h.py:big_str", r"10000000 characters, more than "
            r"MAX_LABEL_LENGTH=1024"),
    # the per-call timeout holds whatever the target does with signals and exceptions
    _failed("hostile-ignores-alarm", "h.py:ignores_alarm", r"per-call limit timeout=0.5 s",
            "--timeout", "0.5"),
    _failed("hostile-swallows-alarm", "h.py:swallows", r"per-call limit timeout=0.5 s",
            "--timeout", "0.5"),
    _failed("hostile-bare-except", "h.py:bare", r"per-call limit timeout=0.5 s", "--timeout", "0.5"),
    _failed("hostile-bare-except-pool", "h.py:bare", r"timeout=0.5 s", "--timeout", "0.5",
            "--workers", "2"),
    _failed("hostile-sleeper", "h.py:sleeper", r"per-call limit timeout=0.5 s", "--timeout", "0.5"),
    # outputs never overwrite inputs or each other
    Case("hostile-json-is-the-target", r"--json h.py is the target's own file",
         argv=_bb("h.py:neg_zero", "--json", "h.py"), files=FILES),
    Case("hostile-json-is-the-target-abs", r"--json \S+h.py is the target's own file",
         argv=_bb("h.py:neg_zero", "--json", "{cwd}/h.py"), files=FILES),
    Case("hostile-html-is-the-target", r"--html h.py is the target's own file",
         argv=_bb("h.py:neg_zero", "--html", "h.py"), files=FILES),
    Case("hostile-json-is-html", r"--html out.json is also the --json path",
         argv=_bb("h.py:neg_zero", "--json", "out.json", "--html", "out.json"), files=FILES),
    Case("hostile-checkpoint-is-json", r"--checkpoint (\S*/)?r.json is also the --json path",
         argv=_bb("h.py:neg_zero", "--json", "r.json", "--checkpoint", "./r.json"), files=FILES),
    # not a Python file
    Case("hostile-target-is-a-directory", r"is a directory, not a Python file",
         argv=_bb("sub/:f"), files={**FILES, "sub/x.py": ""}),
    Case("hostile-target-is-dev-null", r"/dev/null is not a regular file",
         argv=_bb("/dev/null:f"), files=FILES),
    # Dask addresses that are not a scheduler: refused at once with status 2
    Case("hostile-scheduler-http", r"--scheduler http://127.0.0.1:8787: an http address is a "
         r"dashboard", argv=_bb("h.py:neg_zero", "--backend", "dask", "--scheduler",
                                "http://127.0.0.1:8787"), files=FILES),
    Case("hostile-scheduler-scheme", r"unknown scheme 'ftp'",
         argv=_bb("h.py:neg_zero", "--backend", "dask", "--scheduler", "ftp://x:1"),
         files=FILES),
    Case("hostile-scheduler-refused", r"--scheduler tcp://127.0.0.1:1: cannot connect",
         argv=_bb("h.py:neg_zero", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"),
         files=FILES),
    # account: an epsilon the calibration cannot reach names its flag
    Case("hostile-account-tiny-epsilon", r"--epsilon=1e-300 must be >= 1e-100",
         argv=("account", "gaussian", "--queries", "1", "--epsilon", "1e-300", "--delta",
               "1e-5")),
    # valid but unusual targets get the verdict their law implies
    Case("hostile-program-is-sampled-exactly", "", argv=_bb(
        "prog.py:randomized_response", run=("--epsilon", "1/2", "--relation", "substitution",
                                            "--pair", "[0]", "[1]", "--samples", "4000",
                                            "--seed", "1", "--quiet", "--workers", "1")),
         exit_code=EXIT_VIOLATION, verdict=r"verdict\s+VIOLATION", files=FILES),
    Case("hostile-program-is-sampled-exactly-pool", "", argv=_bb(
        "prog.py:randomized_response", run=("--epsilon", "1/2", "--relation", "substitution",
                                            "--pair", "[0]", "[1]", "--samples", "4000",
                                            "--seed", "1", "--quiet", "--workers", "2")),
         exit_code=EXIT_VIOLATION, verdict=r"verdict\s+VIOLATION", files=FILES),
    Case("hostile-negative-zero-leaks", "", argv=_bb("h.py:neg_zero"),
         exit_code=EXIT_VIOLATION, verdict=r"verdict\s+VIOLATION", files=FILES),
]
