"""The figures in the reasons' words (apps.tiering.rules.in_words): its examples hold."""

import doctest

from apps.tiering.rules import in_words


def test_the_examples_hold():
    assert doctest.testmod(in_words).failed == 0
