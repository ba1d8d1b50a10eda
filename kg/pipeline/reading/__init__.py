"""Reading: each document of a build read, checked, resolved and turned into its named graph.

    readers.py         reading documents on every core (or a Dask cluster's tasks), the SHACL sample chosen
    document_graph.py  one checked, resolved document -> its named graph (N-Quads text)
"""
