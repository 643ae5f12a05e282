"""The fleet page's "Flash budget" card (apps.tiering.budget): a tier's N GB or USD a month split across the
targets, and the plans it makes.

Modules by concern: ``views`` (the card, its form, "make the plans"), ``urls`` (its route, in the dashboard
namespace).
"""
