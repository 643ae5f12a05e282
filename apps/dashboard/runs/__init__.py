"""The runs page (/runs/): the collection runs and the refreshes after them, followed live, and Collect now.

Modules by concern: ``views`` (the page, a run's status as JSON, Collect now), ``urls`` (their routes, in the
dashboard namespace), ``selectors`` (the runs with their latest refresh, the targets that can be collected).
"""
