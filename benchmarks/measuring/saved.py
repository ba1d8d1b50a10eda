"""What a benchmark run keeps in its work directory as each size ends, so that a run stopped
half-way (killed, out of time, the machine restarted) can be resumed by `run.py --resume`: the
figures of every size measured, the code they were measured on, and when each part of the run
ran. A resumed run measures only the sizes not saved, and only on the same code (the commit and
any uncommitted change to it), the same seed and the same --full-steps-up-to: figures of other
code would not be one run's."""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from benchmarks.corpus.check import Shape
from benchmarks.measuring.results import SizeResult, Step
from kg.atomic import replaced_file

STATE_FILE = "run-state.json"  # in the run's work directory
VERSION = 1


class CannotResume(Exception):
    """The saved run is not this run's first part: the message says why and what to do."""


@dataclass
class SavedRun:
    """The saved state of a run: its identity, its parts and the figures of each finished size."""

    path: Path
    code: dict                      # machine.code_identity(): commit and digest of uncommitted changes
    settings: dict                  # what must match for the sizes to belong to one run
    parts: list[dict] = field(default_factory=list)    # {"started", "ended", "command", "machine"}
    # docs -> {"result", "part" (1, 2, ...), "ended", "floor_pending", "floor_part" (the part its floor ran in)}
    sizes: dict[int, dict] = field(default_factory=dict)

    @classmethod
    def start(cls, work: Path, code: dict, settings: dict, command: str, machine: dict,
              resume: bool) -> SavedRun:
        """A new run (the work directory's saved state replaced), or with `resume` the saved one
        continued by a new part (a new run when nothing is saved); CannotResume when the saved
        run was measured on other code or settings."""
        path = Path(work) / STATE_FILE
        saved = cls.load(path) if resume and path.exists() else None
        if saved is None:
            saved = cls(path, code, settings)
        else:
            saved.check_same(code, settings)
        saved.parts.append({"started": _now(), "ended": None, "command": command, "machine": machine})
        saved.write()
        return saved

    @classmethod
    def load(cls, path: Path) -> SavedRun:
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CannotResume(f"{path}: cannot read the saved run ({exc}); run without --resume to start again") from exc
        if state.get("version") != VERSION:
            raise CannotResume(f"{path}: saved by another version of benchmarks/run.py (expected version {VERSION}); "
                               "run without --resume to start again")
        sizes = {int(docs): saved for docs, saved in state["sizes"].items()}
        return cls(path, state["code"], state["settings"], state["parts"], sizes)

    def check_same(self, code: dict, settings: dict) -> None:
        if code != self.code:
            raise CannotResume(
                f"the run saved in {self.path} was measured on commit {_describe(self.code)}, and this checkout is "
                f"at {_describe(code)}: a resumed run must measure the same code. Check out {self.code['commit'][:12]} "
                "(with the same uncommitted changes, if any) to resume it, or run without --resume to start again.")
        changed = [f"--{name.replace('_', '-')} {self.settings.get(name)} (now {value})"
                   for name, value in settings.items() if self.settings.get(name) != value]
        if changed:
            raise CannotResume(f"the run saved in {self.path} was measured with {', '.join(changed)}: resume it "
                               "with the same options, or run without --resume to start again")

    def results(self, sizes: tuple[int, ...]) -> list[SizeResult]:
        """The saved figures of the sizes asked for, smallest first."""
        return [size_result(self.sizes[docs]["result"]) for docs in sorted(self.sizes) if docs in sizes]

    def floor_pending(self, docs: int) -> bool:
        return bool(self.sizes.get(docs, {}).get("floor_pending"))

    def size_done(self, result: SizeResult, floor_pending: bool = False) -> None:
        """Save a size's figures once it has ended (`floor_pending`: its bulk-load floor still to run)."""
        earlier = self.sizes.get(result.docs)  # a size whose deferred floor ends in a later part
        self.sizes[result.docs] = {"result": saved_form(result), "part": earlier["part"] if earlier else len(self.parts),
                                   "ended": _now(), "floor_pending": floor_pending,
                                   "floor_part": None if floor_pending else len(self.parts)}
        self.write()

    def finish(self) -> None:
        self.parts[-1]["ended"] = _now()
        self.write()

    def write(self) -> None:
        state = {"version": VERSION, "code": self.code, "settings": self.settings, "parts": self.parts,
                 "sizes": {str(docs): saved for docs, saved in sorted(self.sizes.items())}}
        with replaced_file(self.path) as out:
            out.write(json.dumps(state, indent=1).encode("utf-8"))

    def header(self) -> str:
        """How the run was made, for RESULTS.md: empty for a run of one part, else when each part
        ran and which sizes it measured."""
        if len(self.parts) < 2:
            return ""
        lines = [f"Resumed: this run was made in {len(self.parts)} parts on the same code ({_describe(self.code)}); "
                 "each size's figures come from one part."]
        for number, part in enumerate(self.parts, 1):
            sizes = [f"{docs:,}" for docs, saved in sorted(self.sizes.items()) if saved["part"] == number]
            sizes += [f"the bulk-load floor of {docs:,}" for docs, saved in sorted(self.sizes.items())
                      if saved["part"] != number and saved.get("floor_part") == number]
            measured = ", ".join(sizes) or "none"
            load = part["machine"].get("load average", "?").split(" ")[0]
            lines.append(f"- part {number}: `{part['command']}`, from {part['started']} to "
                         f"{part['ended'] or 'its end (killed or still going)'}; sizes measured: {measured}; "
                         f"load average {load} at its start")
        return "\n".join(lines)


def saved_form(result: SizeResult) -> dict:
    """A SizeResult as JSON can hold it (dataclasses.asdict cannot copy its Counters and step table)."""
    shape = result.shape
    return {"docs": result.docs, "generate_seconds": result.generate_seconds, "problems": result.problems,
            "quads": result.quads, "view": result.view, "companions": [list(pair) for pair in result.companions],
            "steps": {name: asdict(step) for name, step in result.steps.items()},
            "shape": None if shape is None else {f.name: dict(getattr(shape, f.name)) if isinstance(
                getattr(shape, f.name), Counter) else getattr(shape, f.name) for f in fields(shape)}}


def size_result(saved: dict) -> SizeResult:
    """A SizeResult from its saved form."""
    shape = saved["shape"]
    if shape is not None:
        shape = Shape(**{name: Counter(value) if isinstance(value, dict) else value for name, value in shape.items()})
    return SizeResult(docs=saved["docs"], generate_seconds=saved["generate_seconds"], shape=shape,
                      problems=saved["problems"], quads=saved["quads"], view=saved["view"],
                      companions=[tuple(pair) for pair in saved["companions"]],
                      steps={name: Step(**step) for name, step in saved["steps"].items()})


def _describe(code: dict) -> str:
    return code["commit"][:12] + (" with uncommitted changes" if code.get("changes") else "")


def _now() -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
