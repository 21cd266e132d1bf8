"""pgvector's column type, with vectors sent to PostgreSQL in binary.

pgvector's SQLAlchemy type binds a vector as its text form, `[0.0123,-0.0456,…]`: for a 384-float
embedding a ~7,400-character string that Python formats and PostgreSQL parses again, about 0.2 ms
a vector on a quiet core, and the evolution worker sends about five a merge. This type binds the
same value as pgvector's binary wire format instead (a dimension, a zero, then big-endian float4),
which numpy writes in one call.

The parameter goes with oid 0 and an explicit `::VECTOR(n)` cast in the statement, so PostgreSQL
decodes it with the `vector` type's binary input whatever oid the extension's type has in this
database: no per-connection type lookup. Read values are unchanged (pgvector's parsing of the text
the driver returns).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import psycopg
from pgvector.sqlalchemy import VECTOR
from psycopg.adapt import Dumper
from psycopg.pq import Format
from sqlalchemy import Dialect

_HEADER = struct.Struct(">HH")


class BinaryVector:
    """A float vector on its way to PostgreSQL (what the bind processor hands the driver)."""

    __slots__ = ("values",)

    def __init__(self, values: np.ndarray) -> None:
        self.values = values


class _BinaryVectorDumper(Dumper):
    format = Format.BINARY
    oid = 0  # typed by the statement's cast: see the module docstring

    def dump(self, obj: Any) -> bytes:
        values: np.ndarray = obj.values
        return _HEADER.pack(values.shape[0], 0) + values.tobytes()


psycopg.adapters.register_dumper(BinaryVector, _BinaryVectorDumper)


class Vector(VECTOR):
    """`pgvector.sqlalchemy.Vector`, bound in binary (lists, numpy arrays and pgvector's Vector)."""

    cache_ok = True
    render_bind_cast = True

    def bind_processor(self, dialect: Dialect) -> Any:
        dim = self.dim

        def process(value: Any) -> BinaryVector | None:
            if value is None:
                return None
            if hasattr(value, "to_numpy"):
                value = value.to_numpy()
            values = np.asarray(value, dtype=">f4")
            if values.ndim != 1 or (dim is not None and values.shape[0] != dim):
                raise ValueError(f"expected a vector of {dim} dimensions, got shape {values.shape}")
            return BinaryVector(values)

        return process
