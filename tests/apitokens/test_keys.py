"""The key format and its hash, without a database."""

from __future__ import annotations

import doctest
import hashlib
from unittest import TestCase

from apps.apitokens import keys


class KeyTests(TestCase):
    def test_it_makes_keys_that_split_back_into_prefix_and_secret(self):
        prefix, secret = keys.key_new()
        key = keys.key_format(prefix=prefix, secret=secret)

        self.assertTrue(key.startswith(f"tsk_{prefix}_"))
        self.assertEqual(keys.key_split(key), (prefix, secret))

    def test_it_draws_a_new_secret_every_time(self):
        self.assertEqual(len({keys.key_new()[1] for _ in range(50)}), 50)

    def test_it_refuses_keys_of_another_shape(self):
        prefix, secret = keys.key_new()
        # Upper-case hex is refused: a fixed prefix with letters (a drawn one is all digits one time in 43).
        for bad in ("", "tsk_", f"tsk_{prefix}", f"tsk_{prefix}_{secret}x", f"tsk_{prefix}_{secret[:-1]}",
                    f"abc_{prefix}_{secret}", f"tsk_0A1B2C3D_{secret}", f" tsk_{prefix}_{secret}",
                    f"tsk_{prefix}_{secret[:-1]}!"):
            self.assertIsNone(keys.key_split(bad), bad)

    def test_it_hashes_the_secret_with_sha256_and_matches_only_the_same_secret(self):
        _, secret = keys.key_new()
        stored = keys.secret_hash(secret)

        self.assertEqual(stored, hashlib.sha256(secret.encode()).hexdigest())
        self.assertNotIn(secret, stored)
        self.assertTrue(keys.secret_matches(secret, stored))
        self.assertFalse(keys.secret_matches(keys.key_new()[1], stored))

    def test_its_docstring_examples_hold(self):
        self.assertEqual(doctest.testmod(keys).failed, 0)
