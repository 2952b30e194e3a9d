"""System names: library swap, availability checks, reference choice."""

from loom_bench import systems


def make_binary(tmp_path):
    binary = tmp_path / "bench_x_clang"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(0o755)
    return binary


def test_loom_omp_needs_loom_soname(tmp_path):
    binary = make_binary(tmp_path)
    reason = systems.binary_unavailable_reason("loom-omp", binary, tmp_path / "omp")
    assert "libomp.so.5" in reason and "--loom-omp-dir" in reason
    assert systems.binary_unavailable_reason("llvm-omp", binary, tmp_path / "omp") is None


def test_loom_omp_rejects_binary_that_resolves_elsewhere(tmp_path, monkeypatch, loom_omp_dir):
    binary = make_binary(tmp_path)
    monkeypatch.setattr(systems, "resolved_libraries",
                        lambda b, env: {"libomp.so.5": "/usr/lib/llvm-19/lib/libomp.so.5"})
    reason = systems.binary_unavailable_reason("loom-omp", binary, loom_omp_dir)
    assert "RPATH" in reason
    monkeypatch.setattr(systems, "resolved_libraries",
                        lambda b, env: {"libomp.so.5": str(loom_omp_dir / "libomp.so.5")})
    assert systems.binary_unavailable_reason("loom-omp", binary, loom_omp_dir) is None


def test_missing_and_non_executable_binaries(tmp_path):
    assert "not built" in systems.binary_unavailable_reason("loom", tmp_path / "x", tmp_path)
    plain = tmp_path / "plain"
    plain.write_text("")
    assert "not executable" in systems.binary_unavailable_reason("loom", plain, tmp_path)


def test_run_env_sets_threads_and_prefixes_library_path(tmp_path):
    env = systems.run_env("loom-gomp", 3, tmp_path, base={"LD_LIBRARY_PATH": "/opt/lib"})
    assert env["OMP_NUM_THREADS"] == env["LOOM_NUM_THREADS"] == "3"
    assert env["LD_LIBRARY_PATH"] == f"{tmp_path}:/opt/lib"
    assert "LD_LIBRARY_PATH" not in systems.run_env("gnu-omp", 1, tmp_path, base={})


def test_reference_choice():
    present = {"llvm-omp", "gnu-omp", "loom-omp", "loom", "tbb"}
    assert systems.reference_for("llvm-omp", present) == "loom-omp"
    assert systems.reference_for("gnu-omp", present) == "loom-omp"
    assert systems.reference_for("gnu-omp", present | {"loom-gomp"}) == "loom-gomp"
    assert systems.reference_for("tbb", present) == "loom"
    assert systems.reference_for("loom", present) is None
    assert systems.reference_for("loom-omp", present) is None
    assert systems.reference_for("tbb", {"tbb"}) is None
    assert systems.reference_for("tbb", present, override="loom-omp") == "loom-omp"
