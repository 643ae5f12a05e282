"""The target page's storage map (apps.snapshots.storage_map): its card and the admins' form.

Modules by concern: ``views`` (the form: a disk group or mount point mapped to a tier, a pool that tiers by
itself, a mount point declared), ``urls`` (its route, in the dashboard namespace), ``selectors`` (the map
shaped for the target page's card).
"""
