"""A bound form's own copy of one of its declared fields, as the kind of field it is.

``Form.fields`` maps names to plain ``Field``: setting the ``choices`` of a ChoiceField or the ``queryset`` of
a ModelChoiceField per request needs the field's own class, which :func:`form_field` checks and returns.
"""

from __future__ import annotations

from typing import TypeVar

from django import forms

_Field = TypeVar("_Field", bound=forms.Field)


def form_field(form: forms.BaseForm, name: str, kind: type[_Field]) -> _Field:
    """``form.fields[name]``, which must be a ``kind`` (a TypeError naming the form and field otherwise)."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"{type(form).__name__}.{name} is a {type(field).__name__}, not a {kind.__name__}")
    return field
