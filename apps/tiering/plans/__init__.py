"""Move plans (issue 16, item 5): chosen recommendations as steps in a safe order, approved, exported.

Modules by concern: ``steps`` (pure: the safe order, each step's DDL, the totals), ``script`` (pure:
the SQL*Plus script and the CSV), ``models`` (Plan, PlanStep; registered through
apps.tiering.models), ``services`` (create a plan from recommendations, move it through its states),
``selectors``; the pages are apps.dashboard.plans' (views, forms, urls).
"""
