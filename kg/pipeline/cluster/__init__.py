"""Reading a build's documents on a Dask cluster (`kg build --cluster tcp://HOST:8786 | local:N`).

    connect.py  the cluster: a scheduler's workers, or local worker processes; what each worker sees
    tasks.py    what runs on a worker: read a run of documents, write its N-Quads part
    reader.py   the client side: tasks submitted in slug order, their parts read back as they finish

Data does not flow through the client: workers read documents from the corpus directory and write
their N-Quads into the build directory, both on a file system every worker mounts at the same
path; a task returns only where its part is and the evidence summed over its documents. Everything
after reading (the load file, the store, the records) is the same code as a build on one machine,
so the graph is the same.

Imports distributed only when a build asks for a cluster (the `cluster` extra).
"""

from kg.pipeline.cluster.reader import ClusterReader, reading_on

__all__ = ["ClusterReader", "reading_on"]
