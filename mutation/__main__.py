"""``python -m mutation``: run the mutation harness and write its report (see docs/mutation.md).

Examples::

    python -m mutation --list                      # the mutants, no tests run
    python -m mutation --jobs 2 --report docs/mutation.md
    python -m mutation --modules audits/privref/audits/exact.py --sample 40 --seed 1 --jobs 2
    python -m mutation --jobs 2 --log mut.jsonl --resume    # continue an interrupted run
    python -m mutation --rerun mut.jsonl --log mut.jsonl    # that log's survivors, again
    python -m mutation --rerun mut.jsonl --timeouts --timeout 900 --log mut.jsonl  # and timeouts
    python -m mutation --log mut.jsonl --from-log --report docs/mutation.md   # render only
    python -m mutation --modules audits/privref/audits/exact.py --carry HEAD~1   # analyses follow an edit

Exit codes: 0 when every non-equivalent mutant is killed, 1 when a survivor is not analysed
as equivalent in mutation/analysis.json, 2 on bad arguments, 130 when stopped by SIGINT or
SIGTERM (the checks in progress are killed with their process groups and record nothing; the
log keeps what finished, and ``--resume`` continues).
"""

from __future__ import annotations

import argparse
import difflib
import json
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import FrameType
from typing import Any

from .harness import (
    ROOT,
    TARGETS,
    Interrupted,
    Outcome,
    current,
    logged,
    mutants_of,
    run,
    sample,
    stop,
)
from .operators import Mutant, sites

ANALYSIS = Path(__file__).with_name("analysis.json")
"""Survivors' analyses: mutant id -> {"equivalent": bool, "why": str, optionally "kind":
precision or power (see _BENIGN)}."""


def _analysis(path: Path = ANALYSIS) -> dict[str, dict[str, Any]]:
    if not path.exists():
        return {}
    data: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def renames(old_source: str, new_source: str, path: str) -> dict[str, str]:
    """Old mutant id -> new mutant id, for the mutants an edit of ``path`` left unchanged.

    An edit that adds or removes lines renames every mutant below it (an id names its line).
    The mutants of both versions are aligned by (operator, code before, code after), in
    order; an id is renamed only along an unchanged run of that alignment, so an analysis
    never lands on a changed mutant.
    """
    old, new = sites(old_source, path), sites(new_source, path)

    def key(m: Mutant) -> tuple[str, str, str]:
        return m.operator, m.before, m.after

    match = difflib.SequenceMatcher(a=[key(m) for m in old], b=[key(m) for m in new],
                                    autojunk=False)
    return {old[i + k].id: new[j + k].id
            for i, j, size in match.get_matching_blocks() for k in range(size)}


def carry(modules: list[str], rev: str, analysis: Path = ANALYSIS) -> tuple[int, list[str]]:
    """Move the analyses of ``modules``' mutants from their ids at git revision ``rev`` to
    their ids in the working tree (see :func:`renames`), rewriting ``analysis``.

    Returns (how many moved, the ids dropped: mutants that changed or are gone, whose
    analyses must be written again if they still survive).
    """
    notes = _analysis(analysis)
    moved, dropped = 0, []
    for path in modules:
        old_source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, text=True,
                                    capture_output=True, check=True).stdout
        rename = renames(old_source, (ROOT / path).read_text(encoding="utf-8"), path)
        mine = {k: v for k, v in notes.items() if k.startswith(path + ":")}
        notes = {k: v for k, v in notes.items() if k not in mine}
        for k, v in mine.items():
            if k in rename:
                notes[rename[k]] = v
                moved += 1
            else:
                dropped.append(k)
    lines = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in notes.items()]
    analysis.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    return moved, dropped


_BENIGN = {
    "precision": "only change a working precision of interval arithmetic (every enclosure stays "
                 "rigorous; only its width moves)",
    "power": "only change which events or cuts the selection heuristics pick, on the selection "
             "split (every bound stays proved on the held-out split; only the audit's power moves)",
}
"""Analysis kinds of a non-equivalent survivor that leaves every guarantee intact: counted as
survivors in the kill rate, and reported apart."""


def report(outcomes: list[Outcome], *, command: str, seconds: float,
           pending: int = 0) -> tuple[str, int]:
    """The markdown report and the number of survivors not analysed as equivalent."""
    notes = _analysis()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                            capture_output=True, check=False).stdout.strip() or "unknown"
    lines = [
        "<!-- mutation-report:start (generated by python -m mutation; do not edit by hand) -->",
        "",
        f"Run at {commit}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"{seconds / 60:.1f} min wall, {sum(o.seconds for o in outcomes) / 60:.1f} min of test "
        f"runs in all: `{command}`.",
        "",
        "| module | mutants | killed | timeout | survived | equivalent | not runnable | "
        "kill rate (non-equivalent) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    open_survivors = 0
    totals: Counter[str] = Counter()
    for path in dict.fromkeys(o.mutant.path for o in outcomes):
        got = [o for o in outcomes if o.mutant.path == path]
        c = Counter(o.status for o in got)
        equivalent = sum(1 for o in got if o.status == "survived"
                         and notes.get(o.mutant.id, {}).get("equivalent") is True)
        killed = c["killed"] + c["timeout"]
        counted = killed + c["survived"] - equivalent
        rate = f"{killed / counted:.1%}" if counted else "—"
        lines.append(f"| `{path}` | {len(got)} | {c['killed']} | {c['timeout']} | "
                     f"{c['survived']} | {equivalent} | {c['not-runnable'] + c['invalid']} | "
                     f"{rate} |")
        totals.update(c)
        totals["equivalent"] += equivalent
    killed = totals["killed"] + totals["timeout"]
    counted = killed + totals["survived"] - totals["equivalent"]
    benign = {kind: sum(1 for o in outcomes if o.status == "survived"
                        and notes.get(o.mutant.id, {}).get("kind") == kind) for kind in _BENIGN}
    left = counted - sum(benign.values())
    lines += ["", f"**Killed by behaviour: {killed} of {counted} non-equivalent mutants"
              + (f" ({killed / counted:.1%})" if counted else "") + "**; drift tests excluded."
              + (f" {pending} mutants of these modules are not run yet (`--resume` runs them)."
                 if pending else "")
              + "".join(f" {n} of the survivors {_BENIGN[kind]}." for kind, n in benign.items() if n)
              + (f" Without them, {killed} of {left} ({killed / left:.1%})."
                 if any(benign.values()) and left > 0 else ""),
              "", "Survivors:", "",
              "| mutant | change | analysis |", "|---|---|---|"]
    for o in outcomes:
        if o.status != "survived":
            continue
        note = notes.get(o.mutant.id)
        if note is None or note.get("equivalent") is not True:
            open_survivors += 1
        why = "not analysed" if note is None else (
            ("equivalent: " if note.get("equivalent") else
             f"not equivalent, {note['kind']} only: " if note.get("kind") in _BENIGN else
             "not equivalent: ") + note["why"])
        lines.append(f"| `{o.mutant.id}` | `{o.mutant.before}` → `{o.mutant.after}` | {why} |")
    lines += ["", "<!-- mutation-report:end -->"]
    return "\n".join(lines) + "\n", open_survivors


def _write(path: Path, block: str) -> None:
    start, end = "<!-- mutation-report:start", "<!-- mutation-report:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if start in text and end in text:
        before = text[:text.index(start)]
        after = text[text.index(end) + len(end) + 1:]
        text = before + block + after
    else:
        text = text + ("\n" if text else "") + block
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the shards, write the report."""
    parser = argparse.ArgumentParser(prog="python -m mutation", description=__doc__.splitlines()[0])
    parser.add_argument("--modules", help="comma-separated target modules (default: all of "
                        "mutation.harness.TARGETS)")
    parser.add_argument("--sample", type=int, help="run this many mutants, drawn by --seed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="parallel shards (at most 8)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds per test run (a hang is a kill by timeout)")
    parser.add_argument("--report", type=Path, help="markdown file to write the report into")
    parser.add_argument("--log", type=Path, help="append one JSON line per mutant here")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--resume", action="store_true",
                        help="with --log: skip the mutants the log already holds, and report "
                             "their logged outcomes with the new ones")
    parser.add_argument("--from-log", action="store_true",
                        help="with --log: run nothing, report the logged outcomes of the chosen "
                             "mutants (and how many are not run yet)")
    parser.add_argument("--no-select", action="store_true",
                        help="run every check for every mutant (default: only the test files "
                             "that execute the mutant's line on the unmutated module)")
    parser.add_argument("--rerun", type=Path, metavar="LOG",
                        help="run only the mutants that survived in LOG (after new tests)")
    parser.add_argument("--timeouts", action="store_true",
                        help="with --rerun: also run the mutants that timed out in LOG (a time "
                             "limit reached on a loaded machine is not a hang)")
    parser.add_argument("--carry", metavar="REV",
                        help="move the analyses of the chosen modules' mutants from their ids "
                             "at git revision REV to their current ids, then stop")
    args = parser.parse_args(argv)
    modules = list(TARGETS) if args.modules is None else [m.strip() for m in
                                                             args.modules.split(",")]
    unknown = [m for m in modules if m not in TARGETS]
    if unknown or not 1 <= args.jobs <= 8 or args.timeout <= 0 or (
            args.sample is not None and args.sample < 1):
        print(f"error: --modules {unknown} must be among {', '.join(TARGETS)}; --jobs in 1..8; "
              "--timeout > 0; --sample >= 1", file=sys.stderr)
        return 2
    if (args.resume or args.from_log) and args.log is None:
        print("error: --resume and --from-log need --log", file=sys.stderr)
        return 2
    if args.carry is not None:
        try:
            moved, dropped = carry(modules, args.carry)
        except subprocess.CalledProcessError as e:
            print(f"error: --carry {args.carry}: git show failed: {e.stderr.strip()}",
                  file=sys.stderr)
            return 2
        print(f"{moved} analyses moved; {len(dropped)} dropped (their mutants changed or are "
              "gone)" + "".join(f"\n  {k}" for k in dropped))
        return 0
    chosen = sample(mutants_of(modules), args.sample, args.seed)
    if args.rerun is not None:
        if not args.rerun.is_file():
            print(f"error: --rerun {args.rerun}: no such log", file=sys.stderr)
            return 2
        wanted = {"survived", "timeout"} if args.timeouts else {"survived"}
        again = {k for k, o in current(logged(args.rerun), chosen).items() if o.status in wanted}
        chosen = [m for m in chosen if m.id in again]
    done: dict[str, Outcome] = {}
    if (args.resume or args.from_log) and args.log is not None and args.log.is_file():
        done = current(logged(args.log), chosen)
        chosen = [m for m in chosen if m.id not in done]
    if args.list:
        for m in chosen:
            print(f"{m.id}\t{m.before}  ->  {m.after}")
        print(f"{len(chosen)} mutants")
        return 0
    pending = len(chosen) if args.from_log else 0
    if args.from_log:
        chosen = []
    shards = [chosen[i::args.jobs] for i in range(args.jobs)]
    start = time.perf_counter()
    def interrupt(signum: int, frame: FrameType | None) -> None:
        stop()
        raise KeyboardInterrupt

    previous = {sig: signal.signal(sig, interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(lambda s: run(s, timeout=args.timeout, log=args.log,
                                                      select=not args.no_select), shards))
    except (KeyboardInterrupt, Interrupted):
        stop()
        print("stopped: the checks in progress were killed and record nothing; the log keeps "
              "what finished (--resume continues)", file=sys.stderr)
        return 130
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    outcomes = sorted([*done.values(), *(o for r in results for o in r)],
                      key=lambda o: (o.mutant.path,
                                                                      o.mutant.operator,
                                                                      o.mutant.index))
    command = "python -m mutation " + " ".join(argv if argv is not None else sys.argv[1:])
    block, open_survivors = report(outcomes, command=command,
                                   seconds=time.perf_counter() - start, pending=pending)
    if args.report is not None:
        _write(args.report, block)
        print(f"wrote {args.report}")
    else:
        print(block)
    return 1 if open_survivors else 0


if __name__ == "__main__":
    raise SystemExit(main())
