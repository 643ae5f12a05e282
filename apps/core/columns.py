"""Column lists for bulk reads and writes (apps.core.pgcopy, COPY), derived rather than typed by hand.

* :func:`model_columns`: a model's columns from ``Model._meta`` — the attribute
  name (``segment_id`` for a foreign key), the database column and the
  PostgreSQL type a binary COPY writes (int8, float8, bool, text...);
* :func:`array_columns`: a frozen dataclass of numpy column arrays, one field
  per column annotated ``npt.NDArray[<dtype>]``, as (name, PostgreSQL type)
  pairs for :func:`apps.core.pgcopy.fetch_arrays`: the record and the query's
  column types then come from one declaration.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
from django.db import connection, models


class ModelColumn(NamedTuple):
    """One column of a model's table: ``name`` the field's attribute (its ``attname``: ``segment_id`` for a
    foreign key ``segment``), ``column`` the database column, ``pg_type`` the type a binary COPY writes,
    ``null`` whether it takes NULL."""

    name: str
    column: str
    pg_type: str
    null: bool


#: The start of a field's database type (Field.db_type) -> the PostgreSQL type of apps.core.pgcopy.
_PG_TYPES = (("bigint", "int8"), ("integer", "int4"), ("smallint", "int2"), ("double precision", "float8"),
             ("real", "float4"), ("boolean", "bool"), ("varchar", "text"), ("text", "text"),
             ("timestamp with time zone", "timestamptz"), ("date", "date"))


def model_columns(model: type[models.Model], names: Iterable[str] | None = None, *,
                  exclude: Iterable[str] = ()) -> tuple[ModelColumn, ...]:
    """The columns of ``model`` (concrete fields with a column, in declaration order), or of the fields
    ``names`` (field names or attnames) in that order; ``exclude`` leaves fields out. A field whose type
    has no binary COPY form raises ValueError naming the model and field."""
    return _model_columns(model, None if names is None else tuple(names), tuple(exclude))


@functools.cache
def _model_columns(model: type[models.Model], names: tuple[str, ...] | None,
                   exclude: tuple[str, ...]) -> tuple[ModelColumn, ...]:
    meta = model._meta
    if names is None:
        fields = [(field, field.column) for field in meta.concrete_fields if field.column]
    else:
        fields = [_named_column(model, name) for name in names]  # a foreign key by its name or its attname
    skipped = set(exclude)
    return tuple(ModelColumn(field.attname, column, _pg_type(model, field), field.null) for field, column in fields
                 if field.name not in skipped and field.attname not in skipped)


def _named_column(model: type[models.Model], name: str) -> tuple[models.Field, str]:
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or not field.column:
        raise ValueError(f"{model._meta.label}.{name}: no column of its own (a relation from another model?)")
    return field, field.column


def _pg_type(model: type[models.Model], field: models.Field) -> str:
    db_type = (field.db_type(connection) or "").lower()
    for prefix, pg_type in _PG_TYPES:
        if db_type.startswith(prefix):
            return pg_type
    raise ValueError(f"{model._meta.label}.{field.name}: database type {db_type!r} has no binary COPY form")


#: numpy scalar type -> PostgreSQL type of apps.core.pgcopy.WIRE_TYPES.
_ARRAY_TYPES: dict[type, str] = {np.int64: "int8", np.int32: "int4", np.int16: "int2", np.float64: "float8",
                                 np.float32: "float4", np.bool_: "bool"}


@functools.cache
def array_columns(record: type) -> tuple[tuple[str, str], ...]:
    """(name, PostgreSQL type) of each field of the dataclass ``record``, from its ``npt.NDArray[<dtype>]``
    annotation: the columns :func:`apps.core.pgcopy.fetch_arrays` reads into it, in field order. A field
    annotated otherwise raises TypeError naming the record and field."""
    hints = typing.get_type_hints(record)
    columns = []
    for field in dataclasses.fields(record):
        dtype_args = typing.get_args(hints[field.name])
        scalar = typing.get_args(dtype_args[1])[0] if len(dtype_args) == 2 and typing.get_args(dtype_args[1]) else None
        if scalar not in _ARRAY_TYPES:
            raise TypeError(f"{record.__qualname__}.{field.name}: annotated {hints[field.name]!r}, not an "
                            f"npt.NDArray of one of {', '.join(t.__name__ for t in _ARRAY_TYPES)}")
        columns.append((field.name, _ARRAY_TYPES[scalar]))
    return tuple(columns)
