"""Server-rendered admin pages (provenance, evolution, lifecycle), mounted at /admin by create_app()."""

from app.admin.app import MOUNT_PATH, create_admin_app

__all__ = ["MOUNT_PATH", "create_admin_app"]
