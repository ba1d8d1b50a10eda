"""The reference points beside `kg build`: what a user would otherwise pick.

Each operation runs in its own process (run.py measures its wall time and
peak memory from outside) and prints one JSON object with the seconds the
operation itself took, without interpreter start-up:

    floors.py bulk-load KG.NQ STORE_DIR      bare Oxigraph Store.bulk_load of the N-Quads
    floors.py rdflib KG.NQ TURTLE_OUT        rdflib Dataset.parse of the same N-Quads, then
                                             serialize(format="turtle") of their union
    floors.py oxigraph-dump STORE_DIR OUT    Oxigraph's own serializer: the whole store as TriG
                                             (Turtle with graph blocks), one native call
    floors.py kg-turtle STORE_DIR OUT        kg's Turtle export (kg.publish.export) of the same store
    floors.py kg-export BUILD_DIR FMT        a build's export in FMT (nq, ttl, trig, jsonld) as `kg export`
                                             and /export.* make it (kg.publish.export.ensure_export),
                                             written into the build directory; FMT:null writes it to
                                             /dev/null instead (what the disk cannot hold beside a build)
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def bulk_load(nquads: Path, store_dir: Path) -> dict:
    import pyoxigraph as ox

    store = ox.Store(str(store_dir))
    started = time.perf_counter()
    store.bulk_load(path=str(nquads), format=ox.RdfFormat.N_QUADS)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "quads": len(store)}


def rdflib_parse_and_serialize(nquads: Path, turtle_out: Path) -> dict:
    import rdflib

    dataset = rdflib.Dataset(default_union=True)
    started = time.perf_counter()
    dataset.parse(str(nquads), format="nquads")
    parsed = time.perf_counter()
    dataset.serialize(destination=str(turtle_out), format="turtle", encoding="utf-8")
    done = time.perf_counter()
    return {"parse_seconds": parsed - started, "serialize_seconds": done - parsed,
            "quads": sum(1 for _ in dataset.quads()), "bytes": turtle_out.stat().st_size}


def oxigraph_dump(store_dir: Path, out: Path) -> dict:
    import pyoxigraph as ox

    from kg.model.iris import PREFIXES

    store = ox.Store.read_only(str(store_dir))
    started = time.perf_counter()
    store.dump(str(out), ox.RdfFormat.TRIG, prefixes=PREFIXES)
    return {"seconds": time.perf_counter() - started, "bytes": out.stat().st_size}


def kg_turtle(store_dir: Path, out: Path) -> dict:
    from kg.publish.export import write_export
    from kg.store.embedded import EmbeddedStore

    store = EmbeddedStore(store_dir, read_only=True)
    started = time.perf_counter()
    with open(out, "wb") as handle:
        write_export(store, "ttl", handle)
    return {"seconds": time.perf_counter() - started, "bytes": out.stat().st_size}


def kg_export(build_dir: Path, fmt: Path) -> dict:
    from kg.publish import export
    from kg.store import build_dirs

    fmt, _, sink = str(fmt).partition(":")
    path = build_dirs.export_path(build_dir, fmt)
    started = time.perf_counter()
    if sink == "null":  # the export's own code, its file /dev/null (its section index goes beside the build's)
        export._write_export_file(build_dir, fmt, path.with_name(f".{path.name}.null"), Path(os.devnull))
        return {"seconds": time.perf_counter() - started, "bytes": None, "written": "/dev/null"}
    made = path.is_file()
    export.ensure_export(build_dir, fmt)
    return {"seconds": time.perf_counter() - started, "bytes": path.stat().st_size, "by_the_build": made}


OPERATIONS = {"bulk-load": bulk_load, "rdflib": rdflib_parse_and_serialize,
              "oxigraph-dump": oxigraph_dump, "kg-turtle": kg_turtle, "kg-export": kg_export}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3 or args[0] not in OPERATIONS:
        print(__doc__, file=sys.stderr)
        return 2
    result = OPERATIONS[args[0]](Path(args[1]), Path(args[2]))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
