"""`kg query`: prefixed names in table and csv cells, whole cells outside the table, Turtle with the
project's prefixes for CONSTRUCT, and a refused format said plainly (exit 2)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import rdflib
import rdflib.compare

from tests.helpers import CORPUS, run_kg

PUBLIC = Path(__file__).resolve().parents[1] / "data" / "public"
SOLANO = "if you denounce soldiers for coup-plotting they will award you with a new house or a car."


def query(data: Path, *args: str):
    return run_kg("query", *args, "--data", str(data))


def test_table_shows_prefixed_names(shipped_data: Path) -> None:
    result = query(shipped_data, "SELECT ?p ?o WHERE { person:juan-carlos-mora kgo:supports ?o ; ?p ?o }")
    assert result.exit_code == 0, result.output
    assert "kgo:supports" in result.stdout and "person:juan-guaido" in result.stdout
    assert "https://" not in result.stdout


def test_csv_cells_are_whole(shipped_data: Path) -> None:
    assert SOLANO in (CORPUS / "npr-venezuelan-armed-forces-fled.txt").read_text(encoding="utf-8")
    sparql = "SELECT ?s ?t WHERE { ?q kgo:quoteText ?t ; kgo:saidBy ?s . FILTER(CONTAINS(?t, 'coup-plotting')) }"
    rows = list(csv.reader(io.StringIO(query(shipped_data, sparql, "--format", "csv").stdout)))
    assert rows[1][0] == "person:harry-solano" and rows[1][1].startswith(SOLANO) and len(rows[1][1]) > 60
    full = list(csv.reader(io.StringIO(query(shipped_data, sparql, "--format", "csv", "--iris", "full").stdout)))
    assert full[1][0] == "https://kg.example.org/id/person/harry-solano"
    table = query(shipped_data, sparql).stdout
    assert "…" in table and SOLANO not in table  # the table cuts at 60 characters unless told
    assert SOLANO in query(shipped_data, sparql, "--width", "0").stdout


def test_construct_gives_turtle_with_prefixes(shipped_data: Path) -> None:
    sparql = "CONSTRUCT { ?s kgo:memberOf ?o } WHERE { ?s kgo:memberOf ?o }"
    result = query(shipped_data, sparql, "--format", "ttl")
    assert result.exit_code == 0, result.output
    assert "@prefix person: <https://kg.example.org/id/person/> ." in result.stdout
    assert "person:juan-carlos-mora kgo:memberOf" in result.stdout
    turtle = rdflib.Graph().parse(data=result.stdout, format="turtle")
    triples = rdflib.Graph().parse(data=query(shipped_data, sparql, "--format", "nt").stdout, format="nt")
    assert rdflib.compare.isomorphic(turtle, triples) and len(turtle) > 5
    assert query(shipped_data, sparql).stdout == result.stdout  # Turtle by default


def test_formats_that_do_not_fit_are_refused(shipped_data: Path) -> None:
    assert query(shipped_data, "SELECT * WHERE { ?s ?p ?o } LIMIT 1", "--format", "ttl").exit_code == 2
    assert query(shipped_data, "CONSTRUCT WHERE { ?s ?p ?o } LIMIT 1", "--format", "csv").exit_code == 2


def test_every_name_printed_pastes_back_into_a_query(tmp_path: Path) -> None:
    """On corpora whose IRIs need escapes in a prefixed name (NEREL's entities, kgr:city/..., and its
    documents in a subfolder, doc:dev/...; Chinese names of the literary corpus), each IRI `kg query`
    prints, pasted into another query, names the same thing."""
    for name, corpus in [("nerel", PUBLIC / "nerel"), ("zh", PUBLIC / "zh-literature")]:
        data = tmp_path / name
        assert run_kg("build", "--quiet", "--corpus", str(corpus), "--data", str(data)).exit_code == 0
        sparql = "SELECT DISTINCT ?s WHERE { ?s ?p ?o FILTER(isIRI(?s)) }"
        full = list(csv.reader(io.StringIO(query(data, sparql, "--format", "csv", "--iris", "full").stdout)))[1:]
        printed = list(csv.reader(io.StringIO(query(data, sparql, "--format", "csv").stdout)))[1:]
        assert len(printed) == len(full) > 100
        escaped = [cell for [cell] in printed if "\\" in cell]
        assert escaped, "some names need an escape"
        for [cell], [iri] in list(zip(printed, full))[::7]:
            back = query(data, f"SELECT ?x WHERE {{ BIND({cell} AS ?x) }}", "--format", "csv", "--iris", "full")
            assert back.exit_code == 0, (cell, back.output)
            assert list(csv.reader(io.StringIO(back.stdout)))[1] == [iri], cell
