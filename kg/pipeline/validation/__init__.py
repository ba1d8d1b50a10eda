"""Validation: a build's graphs checked against shapes.ttl and the declared terms.

    shacl.py           graphs checked with pySHACL and against the ontology and the corpus vocabulary
    record_shapes.py   the entity records a build wrote, checked for the documents it checked
"""
