#!/usr/bin/env python3
"""Helpers of scripts/run-llvm-openmp-tests.sh for LLVM's OpenMP runtime test suite.

  llvm_suite.py configure --template T --out F KEY=VALUE...   fill lit.site.cfg.py.in
  llvm_suite.py classify SUITE_DIR                             print the tags of each test
  llvm_suite.py sleepers SUITE_DIR                             tasking tests that sleep
  llvm_suite.py summarize --suite-dir D --runtime R --out DIR [--baseline F]
                          [--write-baseline F] [--expected F] RESULT.json...

Tags (reported separately, never silently skipped):
  ompt     needs the OMPT tool interface (REQUIRES: ompt, ompt/ folder, callback.h)
  kmp-ext  uses libomp's own extensions: __kmp*/__kmpc_*/kmp_* identifiers or
           runtime-internal headers in the test source
"""
import argparse
import json
import os
import re
import sys

TEST_SUFFIXES = (".c", ".cpp")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


KMP_IDENT = re.compile(r"\b(__kmp\w*|kmp_\w+|KMP_\w+\s*\()")


def tags_of(path, rel):
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError:
        return []
    tags = []
    requires = " ".join(re.findall(r"REQUIRES:([^\n]*)", text))
    if (rel.startswith("ompt/") or re.search(r"\bompt\b", requires)
            or re.search(r'#\s*include\s*[<"](callback\.h|omp-tools\.h|ompt-signal\.h)', text)):
        tags.append("ompt")
    code = strip_comments(text)
    if KMP_IDENT.search(code) or re.search(r'#\s*include\s*"[^"]*(\.\./src/|kmp_)[^"]*"', code):
        tags.append("kmp-ext")
    return tags


def all_tests(suite_dir):
    for root, _, files in os.walk(suite_dir):
        for f in sorted(files):
            if f.endswith(TEST_SUFFIXES):
                full = os.path.join(root, f)
                rel = os.path.relpath(full, suite_dir)
                # Only files with RUN lines are tests (the rest are included helpers).
                try:
                    head = open(full, encoding="utf-8", errors="replace").read()
                except OSError:
                    continue
                if "RUN:" in head:
                    yield full, rel


def cmd_classify(args):
    out = {rel: tags_of(full, rel) for full, rel in all_tests(args.suite_dir)}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


def cmd_sleepers(args):
    for full, rel in all_tests(args.suite_dir):
        if rel.startswith("tasking/"):
            text = open(full, encoding="utf-8", errors="replace").read()
            if "omp_my_sleep.h" in text or re.search(r"\b(my_sleep|usleep|sleep)\s*\(", text):
                print(rel)


def cmd_configure(args):
    text = open(args.template, encoding="utf-8").read()
    for kv in args.values:
        key, _, value = kv.partition("=")
        text = text.replace("@" + key + "@", value)
    left = re.findall(r"@[A-Z_]+@", text)
    if left:
        sys.exit("configure: no value for " + ", ".join(sorted(set(left))))
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)


ORDER = ["PASS", "FAIL", "XFAIL", "XPASS", "UNSUPPORTED", "TIMEOUT", "UNRESOLVED",
         "SKIPPED", "EXCLUDED", "FLAKYPASS"]


def short(code):
    return {"PASS": "passed", "FAIL": "failed", "UNSUPPORTED": "unsupported",
            "XFAIL": "xfail", "XPASS": "xpass", "TIMEOUT": "timeout",
            "UNRESOLVED": "unresolved", "SKIPPED": "skipped",
            "EXCLUDED": "excluded", "FLAKYPASS": "flaky-pass"}.get(code, code.lower())


def counts_line(results):
    counts = {}
    for code in results.values():
        counts[code] = counts.get(code, 0) + 1
    parts = [f"{counts[c]} {short(c)}" for c in ORDER if c in counts]
    parts += [f"{n} {short(c)}" for c, n in sorted(counts.items()) if c not in ORDER]
    return f"{len(results)} tests: " + (", ".join(parts) if parts else "none")


def is_bad(code):
    return code in ("FAIL", "XPASS", "TIMEOUT", "UNRESOLVED")


def cmd_summarize(args):
    results, elapsed = {}, 0.0
    for path in args.results:
        data = json.load(open(path, encoding="utf-8"))
        elapsed += float(data.get("elapsed", 0.0))
        for t in data.get("tests", []):
            name = t["name"].split(" :: ", 1)[-1]
            if t["code"] == "EXCLUDED":
                continue
            results[name] = t["code"]
    tags = {rel: tags_of(full, rel) for full, rel in all_tests(args.suite_dir)}
    groups = {"core": {}, "ompt": {}, "kmp-ext": {}}
    for name, code in results.items():
        t = tags.get(name, [])
        if "ompt" in t:
            groups["ompt"][name] = code
        if "kmp-ext" in t:
            groups["kmp-ext"][name] = code
        if not t:
            groups["core"][name] = code
    lines = [f"LLVM OpenMP runtime tests on {args.runtime} ({elapsed:.0f} s of lit time)",
             f"  all      {counts_line(results)}",
             f"  core     {counts_line(groups['core'])}   (no OMPT, no libomp extension)",
             f"  ompt     {counts_line(groups['ompt'])}   (need the OMPT tool interface)",
             f"  kmp-ext  {counts_line(groups['kmp-ext'])}   (use libomp's __kmp*/kmp_* extensions)",
             "", "  per folder (all tags):"]
    folders = {}
    for name, code in results.items():
        folders.setdefault(name.split("/", 1)[0], {})[name] = code
    for folder in sorted(folders):
        lines.append(f"    {folder:14s} {counts_line(folders[folder])}")
    bad = sorted(n for n, c in results.items() if is_bad(c))
    if bad:
        lines += ["", "  not passing (result, tags):"]
        for n in bad:
            t = ",".join(tags.get(n, [])) or "core"
            lines.append(f"    {short(results[n]):10s} {n}  [{t}]")
    baseline_regressions = []
    if args.baseline and os.path.exists(args.baseline):
        base = {l.strip() for l in open(args.baseline, encoding="utf-8")
                if l.strip() and not l.startswith("#")}
        missing = sorted(n for n in base if n in results and results[n] != "PASS")
        # OMPT tests reported unsupported by a runtime without a tool interface are
        # expected, not regressions; they are counted on their own line.
        no_tool = [n for n in missing
                   if results[n] == "UNSUPPORTED" and "ompt" in tags.get(n, [])]
        baseline_regressions = [n for n in missing if n not in no_tool]
        lines += ["", f"  pass on Debian's libomp but not on {args.runtime}: "
                      f"{len(baseline_regressions)}"
                      + (f" (and {len(no_tool)} OMPT tests unsupported: no tool interface)"
                         if no_tool else "")]
        for n in baseline_regressions:
            t = ",".join(tags.get(n, [])) or "core"
            lines.append(f"    {short(results[n]):10s} {n}  [{t}]")
    unexpected = []
    if args.expected:
        expected = read_expected(args.expected)
        new_failures = sorted(n for n, c in results.items() if is_bad(c) and n not in expected)
        now_passing = sorted(n for n in expected if results.get(n) == "PASS")
        # A listed test that passes is reported (remove it from the list) but fails
        # nothing: timing-dependent tests may pass on a quiet machine.
        unexpected = new_failures
        known = sorted(n for n in expected if n in results and is_bad(results[n]))
        lines += ["", f"  expectations ({os.path.basename(args.expected)}): "
                      f"{len(known)} known failures, {len(new_failures)} unexpected failures, "
                      f"{len(now_passing)} now passing"]
        for n in new_failures:
            t = ",".join(tags.get(n, [])) or "core"
            lines.append(f"    UNEXPECTED {short(results[n]):10s} {n}  [{t}]")
        for n in now_passing:
            lines.append(f"    NOW PASSING {n}  (remove it from {os.path.basename(args.expected)})")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump({"runtime": args.runtime, "elapsed_s": elapsed,
                   "results": results, "tags": {n: tags.get(n, []) for n in results},
                   "regressions_vs_libomp": baseline_regressions}, f, indent=1, sort_keys=True)
    if args.write_baseline:
        with open(args.write_baseline, "w", encoding="utf-8") as f:
            f.write("# LLVM OpenMP runtime tests that pass on Debian's libomp 19 on the project's\n"
                    "# machine (2 cores), OMP_NUM_THREADS=4 (8 for sleeping tasking tests).\n"
                    "# Written by: scripts/run-llvm-openmp-tests.sh --runtime libomp --write-baseline\n")
            for n in sorted(n for n, c in results.items() if c == "PASS"):
                f.write(n + "\n")
    if args.fail_on_regression and baseline_regressions:
        return 1
    if unexpected:
        return 1
    return 0


def read_expected(path):
    """Known failures: one test path (as lit names it under the suite) per line, then
    `#` and a one-line reason. Blank lines and lines starting with # are ignored."""
    out = {}
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition("#")
        out[name.strip()] = reason.strip()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("configure")
    c.add_argument("--template", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("values", nargs="*")
    c = sub.add_parser("classify")
    c.add_argument("suite_dir")
    c = sub.add_parser("sleepers")
    c.add_argument("suite_dir")
    c = sub.add_parser("summarize")
    c.add_argument("--suite-dir", required=True)
    c.add_argument("--runtime", required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--baseline")
    c.add_argument("--write-baseline")
    c.add_argument("--fail-on-regression", action="store_true")
    c.add_argument("--expected", help="known failures; exit 1 on any other result change")
    c.add_argument("results", nargs="+")
    args = ap.parse_args()
    return {"configure": cmd_configure, "classify": cmd_classify, "sleepers": cmd_sleepers,
            "summarize": cmd_summarize}[args.cmd](args) or 0


if __name__ == "__main__":
    sys.exit(main())
