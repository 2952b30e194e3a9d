"""NumPy matrix products on Debian's OpenMP OpenBLAS, run on loom through loomrun:
exact integer-valued products checked against a pure-Python reference for sampled
entries, and the process's maps show loom, not GNU libgomp, answering libgomp.so.1.
Exit 77 (skipped) when loom does not answer to libgomp.so.1 in this build."""
import sys

import numpy as np

n = 400
a = (np.arange(n * n, dtype=np.float64).reshape(n, n) * 7 % 11) - 5
b = (np.arange(n * n, dtype=np.float64).reshape(n, n) * 3 % 13) - 6
failures = 0
for _ in range(3):
    c = a @ b
    for i in range(0, n, 37):
        for j in range(0, n, 13):
            ref = sum(a[i, k] * b[k, j] for k in range(n))
            if c[i, j] != ref:
                failures += 1
maps = open("/proc/self/maps").read()
gomp = [line.split()[-1] for line in maps.splitlines() if "libgomp" in line or "libloom-omp" in line]
blas = sorted({line.split()[-1] for line in maps.splitlines() if "openblas" in line})
print("BLAS:", blas)
print("OpenMP runtime:", sorted(set(gomp)))
if not any("openblas-openmp" in p for p in blas):
    print("numpy did not load the OpenMP OpenBLAS")
    sys.exit(1)
if not any("libloom-omp" in p for p in gomp) or any("libgomp.so.1.0.0" in p for p in gomp):
    print("OpenBLAS did not run on loom")
    sys.exit(1 if failures else 77)
print("numpy_matmul: all passed" if failures == 0 else f"numpy_matmul: {failures} wrong entries")
sys.exit(1 if failures else 0)
