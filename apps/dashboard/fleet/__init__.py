"""The fleet page (/): one row per target with its costs, savings and flash-cache hit ratio, and the totals.

Modules by concern: ``views`` (the page), ``urls`` (its route, in the dashboard namespace), ``selectors`` (the
fleet's rows and totals).
"""
