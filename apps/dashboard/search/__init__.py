"""The search page (/search/): segments and targets across the fleet by part of their name.

Modules by concern: ``views`` (the page), ``urls`` (its route, in the dashboard namespace), ``selectors`` (the
name search over the trigram index, which the recommendations filter's "Name contains" uses too).
"""
