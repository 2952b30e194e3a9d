"""`python -m loom_bench`: the entry point tools/loom-bench runs."""

import sys

from .cli import main

sys.exit(main())
