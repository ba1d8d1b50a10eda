"""Filling a build's store: bulk-loaded from scratch, or patched from the previous build's.

A full build streams every document's N-Quads into the load file (which
becomes kg.nq) and bulk-loads it. An incremental build starts from a
checkpoint of the previous store (hard links: it shares every unchanged
file), drops the graphs of changed and removed documents, loads the new
ones and recomputes only the entity records they touch. Both end with the
same store a full build makes of the same corpus.

Entity records are written from the evidence the readers sum (kg.model.entities.evidence),
never from a query over the whole store; a build keeps that sum, and the
next incremental build patches it with the evidence of the graphs it swaps.
The network view's index (kg.publish.view_index) is kept and patched alike: each
document's part as its reader finds it, each record's as the build writes it.
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from kg.errors import InputError
from kg.model import iris
from kg.model.entities.entity_records import records_nquads
from kg.model.entities.evidence import (
    Evidence,
    Kept,
    add_evidence,
    counts_of,
    document_evidence,
    kept_form,
    load_kept,
    patch_kept,
    save_evidence,
)
from kg.model.iris import graph_iri, resource_iri
from kg.model.schema.corpus_vocabulary import Vocabulary
from kg.model.view_parts import pack, view_part
from kg.pipeline.cluster import reading_on
from kg.pipeline.inputs import Inputs
from kg.pipeline.load_file import LoadFile, ontology_nquads
from kg.pipeline.phases import Phases
from kg.pipeline.plan import Plan
from kg.pipeline.reading.document_graph import canonical_keys
from kg.pipeline.reading.readers import ChunkReader, read_all
from kg.pipeline.stored_records import gather_evidence, refresh_firsts, replace_records
from kg.pipeline.validation.record_shapes import DeclaredClasses, validate_stored_records, validate_written_records
from kg.publish.search_index import write_build_index
from kg.publish.search_locals import LocalRows
from kg.publish.view_data import ViewParts, record_parts, start_parts
from kg.publish.view_index import load_head, patch_index, write_index
from kg.store import build_dirs, checksums
from kg.store.embedded import EmbeddedStore


@dataclass
class Filled:
    """What the store of a build holds."""

    quads: int
    entities: int  # entity records written
    touched: frozenset[str] | None = None  # IRIs of the records an incremental build rewrote (None: all)
    warnings: dict[str, list[InputError]] = field(default_factory=dict)  # what each document read only warns about


@dataclass
class Options:
    """How to read: progress bar, SHACL validation, reader processes (None: by corpus size), or the
    Dask cluster to read on instead (kg.pipeline.cluster)."""

    progress: bool = False
    validate: bool = True
    workers: int | None = None
    strict: bool = False  # every warning an error
    cluster: str | None = None


def fill_store(plan: Plan, inputs: Inputs, build_dir: Path, options: Options, phases: Phases) -> Filled:
    """Write the build's store (and, for a full build, kg.nq); raises InputErrors on bad input."""
    with ExitStack() as stack:
        reader = None
        if options.cluster:
            with phases.phase("cluster"):  # reaching the cluster, and checking what every worker sees
                reader = stack.enter_context(reading_on(options.cluster, build_dir, _a_document(plan),
                                                        options.progress))
        if plan.mode == "full":
            store, filled = _load_all(plan, inputs, build_dir, options, phases, reader)
        else:
            store, filled = _patch_previous(plan, inputs, build_dir, options, phases, reader)
    with store:
        with phases.phase("flush"):
            store.flush()
        return filled


def _a_document(plan: Plan) -> Path | None:
    """A file of the corpus every worker of a cluster must see."""
    return plan.todo[0].txt if plan.todo else None


def _load_all(plan: Plan, inputs: Inputs, build_dir: Path, options: Options, phases: Phases,
              reader: ChunkReader | None):
    store = EmbeddedStore(build_dirs.store_path(build_dir))
    with _closed_on_failure(store):
        load = LoadFile(build_dir, store)  # the store is bulk-loaded while the documents are read
        local_rows, declared = LocalRows(), DeclaredClasses()

        def sink(slug: str, nquads: str) -> None:
            load.append(graph_iri(slug), nquads)
            local_rows.add(nquads)
            declared.add(nquads)

        try:
            with phases.phase("read"):
                ontology = ontology_nquads(inputs.vocabulary)
                load.append(iris.ONTOLOGY_GRAPH, ontology)
                declared.add(ontology)
                view = start_parts(ontology)
                read = read_all(plan.todo, inputs, options.progress, options.validate, options.workers, sink,
                                frozenset(view.schema.classes), reader)
            with phases.phase("records"):  # written while the loader still works, and loaded with the rest
                count, records = records_nquads(read.evidence, inputs.vocabulary, inputs.aliases)
                load.append(iris.ENTITIES_GRAPH, records)
                declared.add(records)
                _keep_evidence(build_dir, kept_form(read.evidence))
            # what follows needs nothing of the store: it runs while the loader finishes
            with phases.phase("view data"):
                view.documents, view.records = read.view_parts, record_parts(records, view.schema.classes)
                write_index(build_dir, view)
            if options.validate:
                with phases.phase("validate"):  # the records of what the checked documents name
                    validate_written_records(records, read.checked, inputs.vocabulary.declared() | declared.found)
            with phases.phase("search index"):  # the endpoint reads it, never builds it in a request
                write_build_index(build_dir, local_rows=local_rows, records=records)
        except BaseException:
            load.abandon()  # the build directory, store and all, is removed by the caller
            raise
        load.close()
        with phases.phase("load"):  # what the loader still had to do once reading ended
            load.finish_loading()
        with phases.phase("nq export"):
            load.finish_as_export()
    return store, Filled(load.quads, count, warnings=read.by_document)


@contextmanager
def _closed_on_failure(store: EmbeddedStore) -> Iterator[EmbeddedStore]:
    """Close `store` when the block fails: the traceback a caller keeps must not keep RocksDB's
    lock on its directory (the next build of this process may get the same directory name)."""
    try:
        yield store
    except BaseException:
        store.close()
        raise


def _patch_previous(plan: Plan, inputs: Inputs, build_dir: Path, options: Options, phases: Phases,
                    reader: ChunkReader | None):
    graphs: dict[str, str] = {}
    with phases.phase("view data"):
        head = load_head(plan.previous_dir)
    with phases.phase("read"):
        read = read_all(plan.todo, inputs, options.progress, options.validate, options.workers,
                        graphs.__setitem__, frozenset(head[0].classes) if head else frozenset(), reader)
    with phases.phase("checkpoint"), build_dirs.build_store(plan.previous_dir) as previous_store:
        previous_store.backup(build_dirs.store_path(build_dir))
    store = EmbeddedStore(build_dirs.store_path(build_dir))
    with _closed_on_failure(store):
        with phases.phase("replace"):
            touched, delta, replaced = _replace_documents(store, plan, graphs)
            ontology_delta = _replace_ontology(store, inputs.vocabulary)
            if ontology_delta is not None:
                plan.ontology_remade, delta, head = True, delta + ontology_delta, None
        with phases.phase("records"):
            kept = _patched_evidence(store, plan, replaced, read.evidence)
            evidence = counts_of(kept, touched)
            refresh_firsts(store, evidence)  # the entities whose first mention was in an article replaced
            kept.update(kept_form(evidence))
            records_touched = [resource_iri(k) for k in sorted(touched)]
            delta -= _lines(store.dump_graph(iris.ENTITIES_GRAPH, subjects=records_touched))
            count, records = replace_records(store, evidence, inputs.vocabulary, inputs.aliases, touched)
            delta += _lines(records)
            _keep_evidence(build_dir, kept)
        with phases.phase("view data"):  # read from every graph of the store when the previous build kept none
            if head is None or not patch_index(build_dir, plan.previous_dir, read.view_parts, plan.changed + plan.removed,
                                               records, touched):
                write_index(build_dir, _view_of_store(store))
        with phases.phase("count"):  # counting a large store takes seconds: the previous count and the change
            quads = plan.previous_quads + delta if plan.previous_quads is not None else len(store)
        if options.validate:
            with phases.phase("validate"):  # the records of what the checked documents name or named
                validate_stored_records(store, read.checked | touched, inputs.vocabulary.declared())
        return store, Filled(quads, count, frozenset(records_touched), read.by_document)


def _view_of_store(store: EmbeddedStore) -> ViewParts:
    """The view data of every graph of `store`, each dumped and read as a build reads it."""
    view = start_parts(store.dump_graph(iris.ONTOLOGY_GRAPH))
    classes = view.schema.classes
    view.records = record_parts(store.dump_graph(iris.ENTITIES_GRAPH), classes)
    for graph in store.graphs():
        slug = iris.slug_of_graph(graph)
        if slug is not None:
            view.documents[slug] = pack(view_part(store.dump_graph(graph), classes))
    return view


def _keep_evidence(build_dir: Path, kept: Kept) -> None:
    """Keep the evidence for the next build, sealed (kg.store.checksums: a damaged file is not patched)."""
    path = build_dir / build_dirs.EVIDENCE_FILE
    save_evidence(path, kept)
    checksums.seal(path)


def _patched_evidence(store: EmbeddedStore, plan: Plan, replaced: Evidence, new: Evidence) -> Kept:
    """The evidence of the new store: the previous build's, less that of the graphs replaced, plus
    that of the new ones; asked of the whole store when the previous build kept none."""
    path = plan.previous_dir / build_dirs.EVIDENCE_FILE
    kept = load_kept(path) if checksums.intact(path) else None
    if kept is None:
        return kept_form(gather_evidence(store))
    patch_kept(kept, replaced, new)
    return kept


def _replace_documents(store: EmbeddedStore, plan: Plan, graphs: dict[str, str]) -> tuple[set[str], int, Evidence]:
    """Swap the graphs of changed documents; returns the canonical keys whose records may change,
    how many quads the store gained (or lost: negative) and the evidence of the graphs removed."""
    touched: set[str] = set()
    delta = 0
    replaced: Evidence = {}
    for slug in plan.changed + plan.removed:
        old = store.dump_graph(graph_iri(slug))
        touched |= canonical_keys(old)
        delta -= _lines(old)
        add_evidence(replaced, document_evidence(old))
        store.drop_graph(graph_iri(slug))
    for nquads in graphs.values():
        touched |= canonical_keys(nquads)
        delta += _lines(nquads)
        store.load_nquads(nquads.encode())
    return touched, delta, replaced


def _replace_ontology(store: EmbeddedStore, vocab: Vocabulary) -> int | None:
    """Write the ontology graph again when the corpus vocabulary changed since the previous build (a converted
    document brought a layer or feature): how many quads it gained, None when it is unchanged."""
    written = ontology_nquads(vocab)
    old = store.dump_graph(iris.ONTOLOGY_GRAPH)
    if set(written.splitlines()) == set(old.splitlines()):
        return None
    store.drop_graph(iris.ONTOLOGY_GRAPH)
    store.load_nquads(written.encode())
    return _lines(written) - _lines(old)


def _lines(nquads: str) -> int:
    """Quads in N-Quads text holding each quad once (literals escape their line breaks)."""
    return nquads.count("\n")

