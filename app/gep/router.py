"""HTTP layer of Gene validation: `POST /v1/genes/validate`, a dry run that stores nothing."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body
from pydantic import BaseModel, Field

from app.auth.dependencies import ConsumerKey
from app.gep.validation import validate_gene
from app.jsonbody import JSONRoute

router = APIRouter(prefix="/v1", tags=["genes"], route_class=JSONRoute)


class FindingRead(BaseModel):
    source: Literal["gep", "genebank"] = Field(
        description="gep: GEP's official Gene schema (1.13.0); genebank: the registry's stricter rules"
    )
    path: str = Field(description='where, as a JSON Pointer ("" is the whole document)')
    message: str


class ValidationReport(BaseModel):
    valid: bool = Field(description="true when there is no error: POST /v1/genes would accept the document")
    asset_id: str = Field(description="the content address of the document (its asset_id left out)")
    errors: list[FindingRead]
    warnings: list[FindingRead] = Field(
        description="GEP-compatibility notes: Genebank's extension fields, refused by strict GEP validators"
    )


EXAMPLE = {
    "type": "Gene",
    "schema_version": "1.13.0",
    "id": "gene_pytest_flaky_network",
    "category": "repair",
    "signals_match": ["pytest", "ConnectionError"],
    "strategy": ["Mock the HTTP layer with respx"],
    "constraints": {"max_files": 5, "forbidden_paths": [".git"]},
    "validation": ["pytest -q"],
}


@router.post("/genes/validate", response_model=ValidationReport)
async def validate_gene_document(
    document: Annotated[
        dict[str, Any], Body(description="a GEP Gene document, as it would be published", examples=[EXAMPLE])
    ],
    _: ConsumerKey,
) -> ValidationReport:
    """Check a Gene against GEP's official schema and Genebank's rules; an invalid Gene is a 200 with errors.

    Nothing is stored. Publishing also checks what needs the registry (the `parent` against the Gene's
    current version, ownership), which this does not.
    """
    # A megabyte of document is tens of milliseconds of schema work: not on the event loop.
    verdict = await asyncio.to_thread(validate_gene, document)
    return ValidationReport(
        valid=verdict.valid,
        asset_id=verdict.asset_id,
        errors=[FindingRead(source=f.source, path=f.path, message=f.message) for f in verdict.errors],
        warnings=[FindingRead(source=f.source, path=f.path, message=f.message) for f in verdict.warnings],
    )
