"""Result-line parsing: garbage ignored, malformed result lines reported."""

import pytest

from loom_bench import protocol


def test_good_line_and_garbage_lines():
    out = "\n".join([
        "starting benchmark",
        "OMP: Info #276: omp_set_nested routine deprecated",
        '   {"bench":"daxpy","system":"llvm-omp","params":{"n":1000},"threads":2,'
        '"times_s":[0.5,0.4],"verified":true,"work":{"flops":2000}}',
        "done",
        "",
    ])
    parsed = protocol.parse_output(out)
    assert parsed.malformed == []
    [line] = parsed.results
    assert line.times_s == [0.5, 0.4]
    assert line.verified is True
    assert line.work == {"flops": 2000}
    assert line.params == {"n": 1000}
    assert line.threads == 2
    assert line.line_no == 3


def test_several_lines_are_all_kept():
    out = '{"times_s":[1],"verified":true}\n{"times_s":[2],"verified":true}\n'
    assert [r.times_s for r in protocol.parse_output(out).results] == [[1.0], [2.0]]


@pytest.mark.parametrize("line, message", [
    ('{"times_s": [0.1], "verified": true', "invalid JSON"),
    ('{"verified": true}', "times_s"),
    ('{"times_s": [], "verified": true}', "times_s"),
    ('{"times_s": ["fast"], "verified": true}', "times_s"),
    ('{"times_s": [-1], "verified": true}', "times_s"),
    ('{"times_s": [0.1]}', "verified"),
    ('{"times_s": [0.1], "verified": "yes"}', "verified"),
    ('{"times_s": [0.1], "verified": true, "work": {"flops": "many"}}', "work.flops"),
    ('{"times_s": [0.1], "verified": true, "threads": 2.5}', "threads"),
    ('{"times_s": [0.1], "verified": true, "work": [1]}', "work"),
])
def test_malformed_lines_are_reported(line, message):
    parsed = protocol.parse_output("banner\n" + line + "\n")
    assert parsed.results == []
    assert len(parsed.malformed) == 1
    assert parsed.malformed[0].startswith("line 2:")
    assert message in parsed.malformed[0]


def test_json_array_line_is_malformed_not_ignored():
    # Starts with "{"? No: "[" lines are free text and ignored.
    assert protocol.parse_output("[1, 2, 3]\n").malformed == []
    assert protocol.parse_output('{"a": 1}\n').malformed != []


def test_verified_false_is_parsed_with_error():
    [line] = protocol.parse_output(
        '{"times_s":[0.2],"verified":false,"error":"checksum 41 != 42"}').results
    assert line.verified is False
    assert line.error == "checksum 41 != 42"
