"""The built-in demo target: a simulated Oracle order-entry database.

``schema`` describes the segments and where they live, ``simulator`` turns an
hour into the figures AWR would have recorded for it (``load`` gives its load
curves, ``caches`` what its buffer and flash caches hold), and ``source`` wraps
both as a :class:`~apps.targets.base.Source`. Pure Python: standard library only.
"""
