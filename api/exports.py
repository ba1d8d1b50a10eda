"""Downloads of the whole graph: /export.ttl, /export.trig, /export.nq, /export.jsonld.

The files are those the build wrote next to its store (kg.store.build_dirs.export_path);
with a remote store the dataset is streamed from its Graph Store endpoint.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, g, send_file

from kg.api.errors import ApiError
from kg.api.request_life import pinned_backend
from kg.formats import rdf_syntaxes

bp = Blueprint("exports", __name__)


@bp.get("/export.<fmt>")
def export(fmt: str) -> Response:
    if fmt not in rdf_syntaxes.EXPORT_EXTENSIONS:
        raise ApiError(404, f"no export as .{fmt}; there are "
                       + ", ".join(f"/export.{f}" for f in rdf_syntaxes.EXPORT_EXTENSIONS))
    media_type = rdf_syntaxes.by_extension(fmt).media_type
    source = pinned_backend().export(fmt, g.deadline)  # pinned: the build stays marked as served
    name = f"kg.{fmt}"
    if isinstance(source, Path):
        return send_file(source, mimetype=media_type, as_attachment=True, download_name=name,
                         conditional=True, max_age=0)
    response = Response(source, mimetype=media_type)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
