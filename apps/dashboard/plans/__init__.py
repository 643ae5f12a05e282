"""Move plan pages (apps.tiering.plans): the list, one plan with its steps, making a plan, its state, its exports.

Modules by concern: ``views`` (the pages), ``urls`` (their routes, namespace "plans", included by
config.urls), ``forms`` (the form that makes a plan). The plan pages' tests are tests/tiering/plans/'s.
"""
