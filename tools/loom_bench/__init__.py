"""loom-bench: the benchmark driver and report generator of loom.

Benchmarks register themselves with a `manifest.toml` beside their sources
(format: bench/manifest_format.md); this package discovers them, runs the
matrix of benchmark x system x parameters x threads, and writes
`results.json` plus a Markdown report with plots.

Modules, one concept each:
  manifest  discovery and validation of bench/*/manifest.toml
  systems   what each system name means (library swap, availability)
  plan      expanding manifests into cells, estimates, the time budget
  protocol  parsing the JSON result lines that benchmark binaries print
  energy    RAPL energy counters from /sys/class/powercap
  runner    running one cell: timeout, CPU-seconds, energy, failures
  progress  the per-cell progress line with an ETA
  metrics   medians, speed-ups, ratios to loom, rates
  metg      Task Bench's minimum effective task granularity
  machine   machine, compiler and library description for results.json
  results   the results.json document
  plots     PNG figures (matplotlib, Agg backend)
  report    report.md
  cli       command line and orchestration
"""

__version__ = "0.1.0"
