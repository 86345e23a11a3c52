"""The test helper tests/grading/mutation.py: each kind of change it promises, and nothing else."""

import ast
import doctest

import pytest

import mutation
from mutation import Mutant, mutants


def sources(text):
    return [m.source for m in mutants(text)]


def descriptions(text):
    return [m.description for m in mutants(text)]


def body(source):
    """The one-line body of ``def f(...): <body>`` as unparsed by ast."""
    return ast.unparse(ast.parse(source).body[0].body[0])


def bodies(text):
    return {body(s) for s in sources(text)}


def test_comparisons_are_flipped_to_their_likely_mistakes():
    assert {"return a != b", "return a == b"} & bodies("def f(a, b):\n    return a == b\n") == {"return a != b"}
    assert {"return a <= b", "return a >= b"} <= bodies("def f(a, b):\n    return a < b\n")
    assert {"return a < b", "return a > b"} <= bodies("def f(a, b):\n    return a >= b\n")
    assert "return a not in b" in bodies("def f(a, b):\n    return a in b\n")
    assert "return a is not None" in bodies("def f(a):\n    return a is None\n")


def test_and_or_plus_minus_and_booleans_are_swapped():
    assert "return a or b" in bodies("def f(a, b):\n    return a and b\n")
    assert "return a - 1" in bodies("def f(a):\n    return a + 1\n")
    assert "return False" in bodies("def f():\n    return True\n")
    found = sources("def f(a):\n    a += 1\n    return a\n")
    assert any("a -= 1" in s for s in found)


def test_a_str_concatenation_is_not_turned_into_a_subtraction():
    assert not any(" - " in s for s in sources("def f(a):\n    return 'x: ' + a\n"))


def test_conditions_are_negated_and_a_not_is_removed_rather_than_doubled():
    found = sources("def f(a):\n    if a:\n        return 1\n    while not a:\n        a = 1\n"
                    "    return 2 if a else 3\n")
    assert any("if not a:" in s for s in found)
    assert any("while a:" in s for s in found)
    assert any("return 2 if not a else 3" in s for s in found)
    assert not any("not not" in s for s in found)


def test_int_constants_move_by_one_and_to_zero():
    assert {"return 6", "return 4", "return 0"} <= bodies("def f():\n    return 5\n")
    zero = bodies("def f():\n    return 0\n")
    assert {"return 1", "return -1"} <= zero and "return 0" not in zero


def test_str_constants_are_emptied_shortened_and_prefixed():
    assert {"return ''", "return 'PAS'", "return 'XPASS'"} <= bodies("def f():\n    return 'PASS'\n")


def test_slices_lose_each_bound_and_their_constants_move():
    found = bodies("def f(xs):\n    return xs[1:6]\n")
    assert {"return xs[:6]", "return xs[1:]", "return xs[1:7]", "return xs[0:6]"} <= found


def test_computed_subscripts_move_by_one():
    assert {"return xs[i + 1]", "return xs[i - 1]"} <= bodies("def f(xs, i):\n    return xs[i]\n")
    assert "return xs[-1]" in bodies("def f(xs):\n    return xs[0]\n")


def test_range_bounds_move_by_one():
    found = sources("def f(n):\n    for i in range(n):\n        print(i)\n")
    assert any("range(n + 1)" in s for s in found) and any("range(n - 1)" in s for s in found)
    assert any("range(1, n)" in s for s in sources("def f(n):\n    for i in range(0, n):\n        print(i)\n"))


def test_statements_are_dropped_one_at_a_time_and_break_becomes_continue():
    text = ("def f(xs):\n    out = []\n    for x in xs:\n        if x:\n            break\n"
            "        out.append(x)\n    return out\n")
    found = descriptions(text)
    assert "line 2: drop `out = []`" in found and "line 6: drop `out.append(x)`" in found
    assert "line 5: `break` -> `continue`" in found
    assert any("continue" in s for s in sources(text))


def test_return_values_become_none_and_pairs_are_swapped():
    found = bodies("def f(a, b):\n    return a, b\n")
    assert {"return None", "return (b, a)"} <= found
    assert "return None" not in bodies("def f():\n    return None\n")


def test_docstrings_are_never_mutated_and_a_module_keeps_its_definitions():
    text = 'def f():\n    """Say PASS."""\n    return 1\n'
    for m in mutants(text):
        assert '"""Say PASS."""' in m.source or "'Say PASS.'" in m.source
        assert m.source.startswith("def f")


def test_every_mutant_compiles_differs_from_the_original_and_from_the_others():
    text = ("def g(xs, n):\n    total = 0\n    for i in range(n):\n        if xs[i] > 0 and i != 3:\n"
            "            total += xs[i]\n        elif not xs:\n            continue\n    return total, xs[:2]\n")
    found = mutants(text)
    original = ast.unparse(ast.parse(text))
    texts = [m.source for m in found]
    assert len(found) > 30 and len(set(texts)) == len(texts) and original not in texts
    for m in found:
        compile(m.source, m.description, "exec")
        assert m.description.startswith("line ")
    lines = [int(m.description.split()[1].rstrip(":")) for m in found]
    assert lines == sorted(lines)


def test_an_indented_source_is_dedented():
    assert mutants("    def f():\n        return 1\n")


def test_load_returns_the_function_in_a_namespace_of_its_own():
    shared = {"LIMIT": 3}
    m = Mutant("test", "def f(x):\n    return x < LIMIT\n\ndef g():\n    return 1\n")
    assert m.load(namespace=shared)(2) is True
    assert m.load("g")() == 1
    assert set(shared) == {"LIMIT"} and str(m) == "test"
    with pytest.raises(NameError):
        m.load()(1)  # no LIMIT without the namespace


def test_the_examples_in_the_docstring_hold():
    assert doctest.testmod(mutation).failed == 0
