"""Route-level authorization: which role a route needs; the middleware already knows who is calling."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPBearer

from app.auth.principal import ANONYMOUS, Principal, Role
from app.errors import Forbidden, Unauthorized

# Declares the scheme in the OpenAPI document; the token itself is checked by AccessMiddleware.
bearer_scheme = HTTPBearer(auto_error=False, description="an API key: `Authorization: Bearer gb_…`")


def current_principal(request: Request) -> Principal:
    principal: Principal = getattr(request.state, "principal", ANONYMOUS)
    return principal


def require(role: Role) -> Callable[[Request], Principal]:
    def check(request: Request, _: Annotated[object, Depends(bearer_scheme)] = None) -> Principal:
        principal = current_principal(request)
        if not principal.authenticated:
            raise Unauthorized("this action needs an API key", headers={"WWW-Authenticate": "Bearer"})
        if not principal.at_least(role):
            raise Forbidden(f"this action needs a {role.name} key; yours is a {principal.role.name} key")
        return principal

    return check


PrincipalDep = Annotated[Principal, Depends(current_principal)]
ConsumerKey = Annotated[Principal, Depends(require(Role.consumer))]
ProducerKey = Annotated[Principal, Depends(require(Role.producer))]
AdminKey = Annotated[Principal, Depends(require(Role.admin))]
