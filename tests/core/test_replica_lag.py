"""The standby's lag bound, from the primary's WAL positions this process has seen and the standby's replay."""

from __future__ import annotations

from apps.core.replica import lag_bound


class LagBoundTests:
    def test_a_standby_a_few_bytes_behind_after_an_idle_spell_is_as_far_behind_as_its_last_catch_up(self):
        # Caught up with the primary's position read 0.2 s ago; the primary's last commit was 40 s ago; it has
        # since written a record the standby has not replayed yet. The standby misses at most 0.2 s of writes,
        # not 40 (the age of its last replayed commit, which only says nothing newer was committed then).
        samples = [(100.0, 5_000), (139.8, 6_000)]

        assert lag_bound(now=140.0, samples=samples, replayed=6_000, replay_age_s=40.0) == 0.2

    def test_the_age_of_the_last_replayed_commit_bounds_it_when_no_position_seen_was_replayed(self):
        samples = [(100.0, 7_000), (139.8, 8_000)]

        assert lag_bound(now=140.0, samples=samples, replayed=6_500, replay_age_s=12.5) == 12.5

    def test_the_newest_position_the_standby_has_replayed_gives_the_bound(self):
        samples = [(100.0, 5_000), (130.0, 6_000), (139.0, 9_000)]

        assert lag_bound(now=140.0, samples=samples, replayed=6_100, replay_age_s=None) == 10.0

    def test_nothing_to_bound_it_is_not_measured_not_zero(self):
        assert lag_bound(now=140.0, samples=[(139.0, 9_000)], replayed=6_100, replay_age_s=None) is None
        assert lag_bound(now=140.0, samples=[], replayed=None, replay_age_s=None) is None

    def test_a_clock_read_before_its_sample_never_gives_a_negative_or_zero_lag(self):
        # A commit replayed after the standby's clock was read gives a negative age; the standby is still behind
        # in bytes (it is asked only then), so at least 0.1 s: 0 means "replayed everything", and only that.
        assert lag_bound(now=140.0, samples=[(140.5, 6_000)], replayed=6_000, replay_age_s=-0.3) == 0.1
        assert lag_bound(now=140.0, samples=[], replayed=5_000, replay_age_s=0.0) == 0.1

    def test_a_bound_is_rounded_up_so_only_a_standby_that_replayed_everything_reads_as_zero(self):
        assert lag_bound(now=140.0, samples=[(139.96, 6_000)], replayed=6_000, replay_age_s=None) == 0.1
