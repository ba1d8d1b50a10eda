"""kg as INCEpTION's knowledge base: the settings that make INCEpTION's queries answer right,
served as a profile in INCEpTION's own format (the entries of its knowledgebase-profiles.yaml:
name, type, access, mapping, root-concepts, additional-matching-properties, default-dataset,
base-prefix), for this server and the build it serves.

    GET /inception/profile          YAML (?format=json for JSON)

docs/inception.md walks through the settings dialog field by field with these values. The root
concepts are the ontology's classes (and the corpus vocabulary's) whose superclasses are all in
other vocabularies, less kg's own bookkeeping (mentions, sentences, statements, articles, figures,
quotes, memberships): the tree a user browses starts at person, organization, place, event...
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, request

from kg.api.errors import ApiError
from kg.api.json_api.classes import NOT_ENTITY_TYPES
from kg.api.services import terms
from kg.model import iris
from kg.model.iris import FIXED_PREFIXES, ONTOLOGY

bp = Blueprint("knowledge_base", __name__)
RDF, RDFS, OWL, SKOS = (FIXED_PREFIXES[p] for p in ("rdf", "rdfs", "owl", "skos"))
FULL_TEXT = "text:query"  # Apache Jena Fuseki's, answered from kg's search index (api/sparql/full_text.py)
MAPPING = {
    "class": OWL + "Class", "subclass-of": RDFS + "subClassOf", "instance-of": RDF + "type",
    "label": RDFS + "label", "description": RDFS + "comment", "property-type": RDF + "Property",
    "subproperty-of": RDFS + "subPropertyOf", "property-label": RDFS + "label",
    "property-description": RDFS + "comment", "deprecation-property": OWL + "deprecated",
}
ADDITIONAL_MATCHING = [SKOS + "altLabel"]


def profile() -> dict[str, Any]:
    """The profile of this server's graph."""
    return {"name": "kg knowledge graph", "type": "REMOTE",
            "access": {"access-url": request.url_root + "sparql", "full-text-search": FULL_TEXT},
            "mapping": dict(MAPPING), "root-concepts": root_concepts(),
            "additional-matching-properties": list(ADDITIONAL_MATCHING), "reification": "NONE",
            "base-prefix": iris.RESOURCE}


def root_concepts() -> list[str]:
    """The ontology's (and the corpus vocabulary's) classes of entities none of whose superclasses are its own."""
    own = (ONTOLOGY, iris.VOCABULARY)
    internal = {ONTOLOGY + name for name in NOT_ENTITY_TYPES}
    classes = {iri: term for iri, term in terms.terms().items()
               if term.kind == "type" and iri.startswith(own) and iri not in internal}
    return sorted(iri for iri, term in classes.items() if not any(up.startswith(own) for up in term.broader))


@bp.get("/inception/profile")
def inception_profile() -> Response:
    fmt = request.args.get("format", "yaml")
    if fmt == "json":
        return Response(json.dumps({"kg": profile()}, indent=2) + "\n", mimetype="application/json")
    if fmt != "yaml":
        raise ApiError(400, "'format' must be yaml or json")
    return Response(to_yaml({"kg": profile()}), mimetype="application/yaml")


def to_yaml(value: Any, indent: int = 0) -> str:
    """The small subset of YAML a profile needs: mappings, lists and strings (quoted as JSON is)."""
    pad = " " * indent
    if isinstance(value, dict):
        lines = []
        for key, item in value.items():
            if isinstance(item, (dict, list)):
                lines.append(f"{pad}{key}:\n{to_yaml(item, indent + 2)}")
            else:
                lines.append(f"{pad}{key}: {json.dumps(item, ensure_ascii=False)}\n")
        return "".join(lines)
    return "".join(f"{pad}- {json.dumps(item, ensure_ascii=False)}\n" for item in value)
