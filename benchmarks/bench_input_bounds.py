"""What the input bounds of issue 29 cost and save, measured in child processes.

    python benchmarks/bench_input_bounds.py [--chars 1000000,4000000,9000000] [--work DIR]

- XMI memory: peak RSS of reading one INCEpTION document whose text has N characters (a
  sentence every ~150 words, a NamedEntity every 400 words; past about 9M characters the text
  is more than the 10,000,000 bytes libxml2 reads in one attribute by default: cassis's loader
  refuses it, kg reads it with lxml's huge_tree; past about 14M the file is over the 16 MiB rule
  and refused before it is read), with kg's reader (kg.formats.inception.offsets: memory per
  astral character) and with cassis's own loader (two dicts of every offset), each in a fresh
  process (its VmHWM), with what came of it (read, or refused and why).
- kg.toml: seconds to read an alignment of 2,000 and of 20,000 entries up to its error at the
  first entry (the key lines are found in one pass: the ratio stays near 10, not 100).
- type depth: seconds to refuse a 20,000-deep TypeSystem.xml (checked before cassis reads it).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from xml.sax.saxutils import quoteattr

ROOT = Path(__file__).resolve().parent.parent
TYPE_SYSTEM = ROOT / "tests" / "data" / "inception" / "TypeSystem.xml"
WORDS = "Marta Peña works for Médicos Sin Fronteras in Bogotá and told Radio Caracol 🇻🇪 that it reopens".split()
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<xmi:XMI xmlns:xmi="http://www.omg.org/XMI" '
        'xmlns:cas="http:///uima/cas.ecore" '
        'xmlns:type="http:///de/tudarmstadt/ukp/dkpro/core/api/segmentation/type.ecore" '
        'xmlns:type0="http:///de/tudarmstadt/ukp/dkpro/core/api/ner/type.ecore" xmi:version="2.0">\n'
        '<cas:NULL xmi:id="0"/>\n')
CHILD = """
import io, sys
from pathlib import Path
path = Path(sys.argv[1])
outcome = "read"
try:
    if sys.argv[2] == "cassis":
        from cassis import load_cas_from_xmi, load_typesystem
        load_cas_from_xmi(io.BytesIO(path.read_bytes()), typesystem=load_typesystem(io.BytesIO(
            (path.parent / "TypeSystem.xml").read_bytes())))
    else:
        from kg.formats.inception.xmi import xmi_to_brat
        xmi_to_brat(path)
except Exception as exc:
    outcome = "refused: " + str(exc).splitlines()[0][-90:]
print(outcome)
# VmHWM, not getrusage's ru_maxrss: Linux carries the parent's resident size at the fork into a
# child's ru_maxrss across exec (the parent holds the text it generated: 459 MiB at 20M characters)
print(next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) // 1024)
"""


def write_xmi(path: Path, chars: int) -> None:
    """An INCEpTION-like document of about `chars` characters (UTF-16 offsets, as INCEpTION writes)."""
    rnd, text, elements, units, next_id = random.Random(1), [], [], 0, 2
    while units < chars:
        start = units
        for i in range(rnd.randint(80, 250)):
            word = rnd.choice(WORDS)
            size = len(word.encode("utf-16-le")) // 2
            if i % 400 == 0:
                elements.append(f'<type0:NamedEntity xmi:id="{next_id}" sofa="1" begin="{units}" '
                                f'end="{units + size}" value="PER"/>')
                next_id += 1
            text.append(word + " ")
            units += size + 1
        elements.append(f'<type:Sentence xmi:id="{next_id}" sofa="1" begin="{start}" end="{units - 1}"/>')
        next_id += 1
    members = " ".join(map(str, range(2, next_id)))
    path.write_text(HEAD + "\n".join(elements) + f'\n<cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" '
                    f'sofaString={quoteattr("".join(text))}/>\n<cas:View sofa="1" members="{members}"/>\n'
                    "</xmi:XMI>\n", encoding="utf-8")


def peak_mib(path: Path, reader: str) -> tuple[int, float, str]:
    """Peak RSS (MiB) and seconds of reading `path` in a fresh process, and what came of it."""
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), reader], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    outcome, peak = out.stdout.strip().splitlines()[-2:]
    return int(peak), time.perf_counter() - started, outcome


def alignment_seconds(work: Path, entries: int) -> float:
    from kg.errors import ConfigError
    from kg.formats.brat.conf import parse_config
    from kg.model.schema.corpus_vocabulary import Vocabulary, check_alignment_names, load_alignment

    path = work / f"kg-{entries}.toml"
    path.write_text("[align]\n" + "".join(f'Name{i} = "Person"\n' for i in range(entries)), encoding="utf-8")
    started = time.perf_counter()
    try:
        check_alignment_names(Vocabulary(parse_config("[entities]\nPER\n"), load_alignment(path)))
    except ConfigError:
        pass
    return time.perf_counter() - started


def depth_seconds(work: Path, depth: int) -> float:
    from kg.errors import CorpusError
    from kg.formats.inception.errors import check_type_depth

    types = "".join(f"<typeDescription><name>x.T{i}</name><supertypeName>"
                    f"{f'x.T{i - 1}' if i else 'uima.tcas.Annotation'}</supertypeName></typeDescription>\n"
                    for i in range(depth))
    data = TYPE_SYSTEM.read_bytes().replace(b"<types>", b"<types>\n" + types.encode(), 1)
    started = time.perf_counter()
    try:
        check_type_depth(data, "TypeSystem.xml")
    except CorpusError:
        pass
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chars", default="1000000,4000000,9000000")
    parser.add_argument("--work", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.work) as temporary:
        work = Path(temporary)
        (work / "TypeSystem.xml").write_bytes(TYPE_SYSTEM.read_bytes())
        print("| text (characters) | .xmi (bytes) | kg: peak RSS, s | cassis: peak RSS, s |\n|---|---|---|---|")
        for chars in map(int, args.chars.split(",")):
            path = work / f"doc-{chars}.xmi"
            write_xmi(path, chars)
            (kg_mib, kg_s, kg_did), (cassis_mib, cassis_s, cassis_did) = peak_mib(path, "kg"), peak_mib(path, "cassis")
            print(f"| {chars:,} | {path.stat().st_size:,} | {kg_mib} MiB, {kg_s:.1f} s, {kg_did} | "
                  f"{cassis_mib} MiB, {cassis_s:.1f} s, {cassis_did} |")
        small, large = alignment_seconds(work, 2_000), alignment_seconds(work, 20_000)
        print(f"\nkg.toml to its error: 2,000 entries {small:.2f} s, 20,000 entries {large:.2f} s "
              f"(ratio {large / small:.1f}; linear is 10)")
        print(f"TypeSystem.xml 20,000 deep refused in {depth_seconds(work, 20_000):.2f} s")


if __name__ == "__main__":
    main()
