"""A DDL request for the DDL tests (tests/tiering/test_ddl.py, test_ddl_moves.py): SOE.ORDERS to FLASH_DATA on a
release, any field overridden."""

from __future__ import annotations

from apps.tiering.ddl import DdlRequest

R19 = "19.0.0.0.0"
R121 = "12.1.0.2.0"
R112 = "11.2.0.4.0"


def request(object_type: str, release: str = R19, **fields: object) -> DdlRequest:
    base: dict[str, object] = {
        "owner": "SOE",
        "object_name": "ORDERS",
        "object_type": object_type,
        "release": release,
        "target_tablespace": "FLASH_DATA",
    }
    base.update(fields)
    return DdlRequest(**base)  # type: ignore[arg-type]
