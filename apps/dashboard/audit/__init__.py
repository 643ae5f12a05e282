"""The audit page (/audit/, admins): the audit log (apps.core.audit) filtered and paged by keyset.

Modules by concern: ``views`` (the page), ``urls`` (its route, in the dashboard namespace), ``forms`` (its
filters: who, target, what, action, when, name), ``rows`` (how an entry is worded: a create or a delete as
one line, an update as each field's old -> new).
"""
