#!/usr/bin/env python3
"""Derives deb-src entries from the machine's own apt 'deb' entries.

    deb_src.py OUT.sources CODENAME

Reads /etc/apt/sources.list.d/*.sources (deb822) and the one-line /etc/apt/sources.list
and sources.list.d/*.list, keeps the entries of this distribution release (suite equal
to CODENAME or CODENAME-*: third-party repositories rarely publish sources and would
make 'apt-get update' fail) and writes them as deb822 'deb-src' stanzas to OUT.sources.
Used by scripts/fetch-llvm-openmp-tests.sh and scripts/fetch-libgomp-tests.sh. No
archive address is stored anywhere.
"""
import glob
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out_path, codename = sys.argv[1], sys.argv[2]

    def suite_ok(s):
        return not codename or s == codename or s.startswith(codename + "-")

    stanzas = []
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        try:
            text = open(path, encoding="utf-8").read()
        except OSError:
            continue
        for block in re.split(r"\n\s*\n", text):
            fields, last = {}, None
            for line in block.splitlines():
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                if line[0] in " \t" and last:
                    fields[last] += "\n" + line
                    continue
                key, _, val = line.partition(":")
                last = key.strip()
                fields[last] = val.strip()
            if "deb" not in fields.get("Types", "").split():
                continue
            if fields.get("Enabled", "yes").lower() == "no":
                continue
            suites = [s for s in fields.get("Suites", "").split() if suite_ok(s)]
            if not suites or not fields.get("URIs"):
                continue
            st = {"Types": "deb-src", "URIs": fields["URIs"], "Suites": " ".join(suites),
                  "Components": fields.get("Components", "main")}
            if "Signed-By" in fields:
                st["Signed-By"] = fields["Signed-By"]
            stanzas.append(st)
    for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        try:
            lines = open(path, encoding="utf-8").read().splitlines()
        except OSError:
            continue
        for line in lines:
            line = line.split("#", 1)[0].strip()
            m = re.match(r"^deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)\s*(.*)$", line)
            if not m:
                continue
            opts, uri, suite, comps = m.group(1) or "", m.group(2), m.group(3), m.group(4)
            if not suite_ok(suite):
                continue
            st = {"Types": "deb-src", "URIs": uri, "Suites": suite, "Components": comps or "main"}
            sb = re.search(r"signed-by=(\S+?)\s*[\]\s]", opts + " ")
            if sb:
                st["Signed-By"] = sb.group(1)
            stanzas.append(st)
    if not stanzas:
        sys.exit("no usable 'deb' entry found in /etc/apt/sources.list{,.d}")
    with open(out_path, "w", encoding="utf-8") as f:
        for st in stanzas:
            for k, v in st.items():
                f.write(f"{k}: {v}\n")
            f.write("\n")


if __name__ == "__main__":
    main()
