"""What a GenCoG test loop (run_test.py, or run_nnsmith.py of patches/nnsmith.patch) did.

    gencog_collect.py OUT DEDUP ARMDIR PREFIX

OUT is the loop's -o directory: cases.tsv (a line a case, written by the patch: ID, then ok,
timeout, invalid, "error RC" or "nogen ...") and run-*/ID/ for each case kept (code.txt, and when
_run_ps.py reported it, a file named by the ErrorKind and error.txt, "opt_level=N" first). DEDUP is
a copy of that run directory after GenCoG's dedup_case.py. Writes ARMDIR/arm.json and each failing
program as ARMDIR/failures/PREFIX-ID.relay with the tvm-server check that redoes GenCoG's step.

A PARSE error (tvm.parser.parse, which type-checks too, rejects the program: GenCoG's own
nn.conv2d_transpose weight layout is older TVM's) is invalid, not a find; so is an NNSmith model
whose ONNX conversion TVM rejects ("invalid"). A timeout is neither valid nor a failure.
"""
import glob
import json
import os
import shutil
import sys

KINDS = ("PARSE", "COMPILE", "RUN", "COMPUTE")
# GenCoG builds with these disabled at every opt level (gencog/debug/run.py, build_mod)
DISABLED = ["--disabled-pass", "AlterOpLayout,CombineParallelDense"]


def kind_of(case):
    """The ErrorKind _run_ps.py wrote, or "crash" (killed by a signal or an error outside its
    ModuleError: no report), and the opt level it was at (None if unknown)."""
    kind = next((k for k in KINDS if os.path.exists(os.path.join(case, k))), "crash")
    level = None
    try:
        first = open(os.path.join(case, "error.txt")).readline().strip()
        level = int(first.split("=", 1)[1]) if first.startswith("opt_level=") else None
    except (OSError, ValueError):
        pass
    return kind, level


def check_args(kind, level):
    """The tvm-server check (one argument a line) that redoes GenCoG's failing step."""
    if kind == "COMPUTE":  # the results at `level` differ from those at 0 (GenCoG's tolerance)
        return ["diff", "--configs", "graph:0,graph:%d" % level, "--rtol", "1e-3", "--atol", "1e-2"] + DISABLED
    if kind in ("COMPILE", "RUN"):
        return ["build", "--opt-level", str(level)] + DISABLED + (["--run"] if kind == "RUN" else [])
    # a crash: the level is unknown (stderr went to /dev/null); 4 runs the most passes
    return ["build", "--opt-level", "4", "--run"] + DISABLED


def main():
    out, dedup, armdir, prefix = sys.argv[1:5]
    runs = glob.glob(os.path.join(out, "run-*"))
    run = runs[0] if runs else None
    lines = []
    if os.path.exists(os.path.join(out, "cases.tsv")):
        lines = [ln.rstrip("\n").split("\t", 1) for ln in open(os.path.join(out, "cases.tsv")) if "\t" in ln]
    stats = {"programs": 0, "invalid": 0, "timeouts": 0, "failures": 0}
    kinds, nogen = {}, 0
    for case_id, status in lines:
        if status.startswith("nogen"):
            nogen += 1
            continue
        stats["programs"] += 1
        if status == "invalid":
            stats["invalid"] += 1
        elif status == "timeout":
            stats["timeouts"] += 1
        elif status.startswith("error") and run:
            case = os.path.join(run, case_id)
            kind, level = kind_of(case)
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind == "PARSE":
                stats["invalid"] += 1
                continue
            stats["failures"] += 1
            name = os.path.join(armdir, "failures", "%s-%s.relay" % (prefix, case_id))
            shutil.copyfile(os.path.join(case, "code.txt"), name)
            with open(name + ".args", "w") as f:
                f.write("\n".join(check_args(kind, level if level is not None else 0)) + "\n")
    stats["valid"] = stats["programs"] - stats["invalid"] - stats["timeouts"]
    # GenCoG's own count of distinct failures: cases dedup_case.py kept, but the invalid ones
    kept = None
    if os.path.isdir(dedup):
        kept = sum(1 for c in os.listdir(dedup) if kind_of(os.path.join(dedup, c))[0] != "PARSE")
    stats["peer"] = {"kinds": kinds, "no_model": nogen, "dedup_kept": kept}
    json.dump(stats, open(os.path.join(armdir, "arm.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
